"""The tour's exercises on the block: multi-head attention (S10, S12), LayerNorm in one
block (S13), the last layer's gradient against depth (S14) and the sinusoidal positions'
similarity (S16)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ...charts import block_anatomy as block_charts
from ...charts import depth_gradients as depth_charts
from ...charts import head_grid
from ...charts import positional as pos_charts
from ...i18n import t
from ...text import token_labels, tokenize
from .. import block_anatomy, depth_gradients, multihead, positional
from .exercise import Choice, Exercise, exercise, in_order, pick_distractors, sentences, tr
from .scoring_asks import EXAMPLES, example

TIE = 1e-4


def mh_config(lang: str, seed: int) -> multihead.Config:
    """The multi-head page's sentence for example 0, the scoring examples' after it."""
    text = example(lang, seed)[0] if seed % EXAMPLES else t("multihead.default_text", lang)
    return multihead.Config(text=text, D=64, H=8, seed=seed)


def mh_link(cfg: multihead.Config, lang: str, seed: int) -> dict[str, str]:
    params = dict(text=cfg.text, D=str(cfg.D), H=str(cfg.H), auto="true", score=cfg.score)
    params |= dict(causal=str(cfg.causal).lower(), pe=cfg.pe, pe_mode=cfg.pe_mode, norm=cfg.norm)
    params |= dict(seed=str(cfg.seed), qk="1", show="weights", head="1")
    # the step-through and q–k views closed: no weight is picked (no i, j)
    return params | dict(follow="false", qkview="false")


def s10(cfg, r, lang, seed) -> Exercise:
    """The shape of one head's queries Q_h = X W_h^Q, read off the lesson's pipeline."""
    steps = r.pipeline.set_index("step")["shape"]
    H, N, Dp = (int(n) for n in steps["Q_h, K_h, V_h"].split(" × "))
    W = r.width
    shapes = {"ND'": (N, Dp), "ND": (N, W), "DD'": (W, Dp), "NN": (N, N)}
    keys = [k for k, s in shapes.items() if k == "ND'" or s != shapes["ND'"]]
    return exercise(
        "S10",
        tr("s10_ask", lang, N=N, D=W, H=H, Dp=Dp),
        [Choice(k, f"{shapes[k][0]} × {shapes[k][1]}") for k in keys],
        "ND'",
        tr("s10_why", lang, N=N, D=W, Dp=Dp, H=H),
    )


def heads_figure(cfg, r, lang, seed) -> go.Figure:
    titles = [t("tour.head", lang, h=h + 1) for h in range(cfg.H)]
    # the colours span 0 … the largest weight of any head: its brightest cell is the answer
    return head_grid(r.weights, r.tokens, titles=titles, zmax=float(r.weights.max()))


def s12(cfg, r, lang, seed) -> Exercise:
    """The head whose map holds the largest single weight."""
    values = {str(h + 1): float(m) for h, m in enumerate(r.max_weight)}
    heads = list(values)
    right = max(heads, key=values.get)
    keys = [right, *pick_distractors(heads, values, right, 3, seed, TIE)]
    low = min(values, key=values.get)
    why = dict(h=right, a=values[right], low=low, b=values[low], H=cfg.H, Dp=r.d_head)
    return exercise(
        "S12",
        tr("s12_ask", lang, H=cfg.H),
        [Choice(k, t("tour.head", lang, h=k)) for k in in_order(keys, heads)],
        right,
        tr("s12_why", lang, **why, width=cfg.H * r.d_head),
        values,
        TIE,
    )


def block_config(lang: str, seed: int) -> block_anatomy.Config:
    text = t("block_anatomy.default_text", lang)
    return block_anatomy.Config(norm="post", text=text, D=64, H=4, ff=4, seed=seed)


def ln_token(r, seed: int) -> int:
    """The token the stop asks about (0-based): the seed picks it."""
    return seed % len(r.tokens)


def block_link(cfg: block_anatomy.Config, lang: str, seed: int) -> dict[str, str]:
    params = dict(norm=cfg.norm, text=cfg.text, D=str(cfg.D), H=str(cfg.H), ff=str(cfg.ff))
    token = 1 + seed % len(tokenize(cfg.text))  # the LN chart's token: the one asked about
    return params | dict(seed=str(cfg.seed), token=str(token))


def pre_link(lang: str, seed: int) -> dict[str, str]:
    """The block page with pre-LN: the block S14 names, whose depth the stop asks about."""
    cfg = block_config(lang, seed)
    return block_link(block_anatomy.Config(**{**vars(cfg), "norm": "pre"}), lang, seed)


# S13: a token's mean and variance over its D features after LN (before γ, β)
MOMENTS = ("0,1", "0,D", "1,0", "1,1")


def s13(cfg, r, lang, seed) -> Exercise:
    """The (mean, variance) pair nearest the measured one of the stop's token."""
    i = ln_token(r, seed)
    row = r.stats.iloc[i]
    got = np.array([row["mean_after"], row["var_after"]])
    targets = {"0,1": (0, 1), "0,D": (0, cfg.D), "1,0": (1, 0), "1,1": (1, 1)}
    closeness = {k: -float(np.hypot(*(got - v))) for k, v in targets.items()}
    right = max(MOMENTS, key=closeness.get)
    token = token_labels(r.tokens, escape=False)[i]
    fields = dict(mean=got[0], var=got[1], mb=row["mean_before"], vb=row["var_before"])
    return exercise(
        "S13",
        tr("s13_ask", lang, token=token, D=cfg.D),
        [Choice(k, tr(f"s13_{k.replace(',', '_')}", lang, D=cfg.D)) for k in MOMENTS],
        right,
        tr("s13_why", lang, token=token, D=cfg.D, **fields),
        closeness,
        0.0,
    )


def s13_figure(cfg, r, lang, seed) -> go.Figure:
    i = ln_token(r, seed)
    before = t("block_anatomy.before", lang, token=token_labels(r.tokens)[i])
    return block_charts.ln_token(
        r.ln_in[i],
        r.ln_hat[i],
        (before, t("block_anatomy.after", lang)),
        x_title=t("block_anatomy.feature", lang),
    )


# S14: whose last-layer gradient stays within a factor KEEP from L = 3 to L = 24
KEEP = 1.5  # 1/√L would give ×0.35 over the range; a gradient that "stays" moves far less
PLACEMENTS = ("post", "pre", "both", "neither")


def depth_config(lang: str, seed: int) -> depth_gradients.TrendConfig:
    scales = list(depth_gradients.X_SCALES)
    return depth_gradients.TrendConfig(D=128, seeds=3, x_scale=scales[seed % len(scales)])


def depth_link(cfg: depth_gradients.TrendConfig, lang: str, seed: int) -> dict[str, str]:
    return dict(L="12", D=str(cfg.D), seeds=str(cfg.seeds), param="W_2", x=cfg.x_scale)


def keeps(ratio: float) -> bool:
    return 1 / KEEP <= ratio <= KEEP


def s14(cfg, r, lang, seed) -> Exercise:
    kept = [n for n in ("post", "pre") if keeps(r.ratios[n])]
    right = kept[0] if len(kept) == 1 else ("both" if kept else "neither")
    lo, hi = depth_gradients.RATIO_DEPTHS
    scale = t(f"depth_gradients.x_{cfg.x_scale}", lang)
    return exercise(
        "S14",
        tr("s14_ask", lang, lo=lo, hi=hi, scale=scale),
        [Choice(k, tr(f"s14_{k}", lang)) for k in PLACEMENTS],
        right,
        tr(f"s14_why_{right}", lang, lo=lo, hi=hi, keep=KEEP, **r.ratios),
    )


def s14_figure(cfg, r, lang, seed) -> go.Figure:
    return depth_charts.band(
        r.spread,
        "L",
        names={n: t(f"names.norm_{n}", lang) for n in depth_gradients.NORMS},
        title=tr("s14_title", lang),
        log=True,
        x_title=t("depth_gradients.depth", lang),
        y_title=t("depth_gradients.grad", lang),
        reference=(*r.reference, t("depth_gradients.reference", lang)),
    )


def pos_config(lang: str, seed: int) -> positional.Config:
    return positional.Config(kind="sinusoidal", N=50, D=64, seed=0)


def pos_link(cfg: positional.Config, lang: str, seed: int) -> dict[str, str]:
    params = dict(kind=cfg.kind, N=str(cfg.N), D=str(cfg.D), seed=str(cfg.seed))
    params |= dict(cosine=str(cfg.cosine).lower(), d_pos=str(cfg.d_pos))
    params |= dict(head_seed=str(positional.SAME_WORD_SEED), s=f"{positional.SAME_WORD_SCALE:g}")
    return params | dict(text=t("positional.default_text", lang), mode="add")


def s16_positions(N: int, seed: int) -> tuple[int, list[int]]:
    """Position i (0-based) and six other positions to compare with it, drawn by ``seed``."""
    rng = np.random.default_rng(seed)
    i = int(rng.integers(N // 5, N - N // 5))
    others = rng.permutation([j for j in range(N) if j != i])[:6]
    return i, sorted(int(j) for j in others)


def s16(cfg, r, lang, seed) -> Exercise:
    """Of a few positions j, the one whose p_j is most similar to p_i (G[i, j] largest)."""
    i, others = s16_positions(cfg.N, seed)
    values = {str(j + 1): float(r.G[i, j]) for j in others}
    js = list(values)
    right = max(js, key=values.get)
    keys = [right, *pick_distractors(js, values, right, 3, seed, TIE)]
    nearest = min(keys, key=lambda j: abs(int(j) - 1 - i))
    why = tr("s16_why", lang, i=i + 1, j=right, s=values[right], self=float(r.G[i, i]))
    near = tr("s16_near" if right == nearest else "s16_far", lang, j=right, near=nearest)
    why = sentences(lang, why, near)
    return exercise(
        "S16",
        tr("s16_ask", lang, i=i + 1),
        [Choice(k, t("tour.position", lang, j=k)) for k in in_order(keys, js)],
        right,
        why,
        values,
        TIE,
    )


def s16_figure(cfg, r, lang, seed) -> go.Figure:
    return pos_charts.matrix(
        r.G,
        title=t("tour.s16_title", lang),
        x_title=t("tour.position_j", lang),
        y_title=t("tour.position_i", lang),
    )
