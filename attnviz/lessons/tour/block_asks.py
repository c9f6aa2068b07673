"""The tour's exercises on the block: Q, K, V from one X (S10), the heads' widths, divisor
and W^O (S12), LayerNorm in a post-LN block (S13), post-LN and pre-LN against depth (S14),
and the sinusoidal positions (S16)."""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from ...charts import block_anatomy as block_charts
from ...charts import head_grid
from ...charts import positional as pos_charts
from ...i18n import t
from ...text import token_labels, tokenize
from .. import block_anatomy, multihead, positional
from .exercise import Exercise, choices_of, exercise, kind, numbers, shaped, signed, tr
from .scoring_asks import EXAMPLES, example

# ---- S10: Q, K and V are linear maps of the same X; S12: H heads of width D′ = D / H
S10_KINDS = ("shape", "from_x", "scale")
S12_KINDS = ("width", "divisor", "output")
S10_HEADS = (2, 4, 8)
S12_HEADS = (2, 4, 16)
QK_SCALE = 2  # s of W^Q, W^K in S10's "scale" question: every score × s²


def heads(seed: int, options: tuple[int, ...], kinds: int) -> int:
    return options[(seed // kinds) % len(options)]


def mh_config(claim: str):
    def config(lang: str, seed: int) -> multihead.Config:
        """The multi-head page's sentence for example 0, the scoring examples' after it."""
        text = example(lang, seed)[0] if seed % EXAMPLES else t("multihead.default_text", lang)
        if claim == "S10":
            H = heads(seed, S10_HEADS, len(S10_KINDS))
            scale = QK_SCALE if kind(seed, S10_KINDS) == "scale" else 1
        else:
            H, scale = heads(seed, S12_HEADS, len(S12_KINDS)), 1
        return multihead.Config(text=text, D=64, H=H, seed=seed, qk_scale=float(scale))

    return config


def mh_link(cfg: multihead.Config, lang: str, seed: int) -> dict[str, str]:
    params = dict(text=cfg.text, D=str(cfg.D), H=str(cfg.H), auto="true", score=cfg.score)
    params |= dict(causal=str(cfg.causal).lower(), pe=cfg.pe, pe_mode=cfg.pe_mode, norm=cfg.norm)
    params |= dict(seed=str(cfg.seed), qk=f"{cfg.qk_scale:g}", show="weights", head="1")
    # the step-through and q–k views closed: no weight is picked (no i, j)
    return params | dict(follow="false", qkview="false")


def mh_state(cfg: multihead.Config, lang: str, seed: int) -> str:
    return tr("mh_state", lang, D=cfg.D, H=cfg.H, Dp=cfg.D // cfg.H, s=f"{cfg.qk_scale:g}")


def dims(r: multihead.Result) -> tuple[int, int, int, int]:
    """N, D, H and D′ as the lesson's pipeline computed them: Q_h, K_h, V_h are H × N × D′."""
    steps = r.pipeline.set_index("step")["shape"]
    H, N, Dp = (int(n) for n in steps["Q_h, K_h, V_h"].split(" × "))
    return N, r.width, H, Dp


def s10(cfg, r, lang, seed) -> Exercise:
    k = kind(seed, S10_KINDS)
    N, D, H, Dp = dims(r)
    fields = dict(N=N, D=D, H=H, Dp=Dp)
    if k == "shape":
        shapes = {"ND'": (N, Dp), "ND": (N, D), "DD'": (D, Dp), "NN": (N, N)}
        return exercise(
            "S10",
            seed,
            k,
            tr("s10_ask_shape", lang, **fields),
            shaped("ND'", shapes),
            "ND'",
            tr("s10_why_shape", lang, **fields),
        )
    if k == "from_x":
        keys = ("all", "q", "kv", "none")
        return exercise(
            "S10",
            seed,
            k,
            tr("s10_ask_from_x", lang),
            choices_of("s10_from_x", keys, lang),
            "all",
            tr("s10_why_from_x", lang, **fields),
        )
    s = cfg.qk_scale
    choices = numbers(
        ("s2", s * s, f"× {s * s:g} (= s²)"),
        ("s", s, f"× {s:g} (= s)"),
        ("1", 1.0, tr("s10_scale_same", lang)),
        ("root", math.sqrt(s), f"× {math.sqrt(s):.2f} (= √s)"),
    )
    return exercise(
        "S10",
        seed,
        k,
        tr("s10_ask_scale", lang, s=f"{s:g}", Dp=Dp),
        choices,
        "s2",
        tr("s10_why_scale", lang, s=f"{s:g}", s2=f"{s * s:g}", Dp=Dp),
    )


def heads_figure(cfg, r, lang, seed) -> go.Figure:
    titles = [t("tour.head", lang, h=h + 1) for h in range(cfg.H)]
    # the colours span 0 … the largest weight of any head
    return head_grid(r.weights, r.tokens, titles=titles, zmax=float(r.weights.max()))


def s12(cfg, r, lang, seed) -> Exercise:
    k = kind(seed, S12_KINDS)
    N, D, H, Dp = dims(r)
    fields = dict(N=N, D=D, H=H, Dp=Dp, root=f"{math.sqrt(Dp):.3g}")
    if k == "width":
        choices = numbers(
            ("D/H", Dp, str(Dp)),
            ("D", D, str(D)),
            ("DH", D * H, str(D * H)),
            ("H", H, str(H)),
        )
        right = "D/H"
    elif k == "divisor":
        choices = numbers(
            ("rootDp", math.sqrt(Dp), f"√D′ = √{Dp} ≈ {math.sqrt(Dp):.3g}"),
            ("rootD", math.sqrt(D), f"√D = √{D} = {math.sqrt(D):.3g}"),
            ("Dp", Dp, f"D′ = {Dp}"),
            ("rootH", math.sqrt(H), f"√H = √{H} ≈ {math.sqrt(H):.3g}"),
        )
        right = "rootDp"
    else:
        shapes = {"DpH_D": (Dp * H, D), "Dp_D": (Dp, D), "D_Dp": (D, Dp), "H_D": (H, D)}
        choices, right = shaped("DpH_D", shapes), "DpH_D"
    return exercise(
        "S12",
        seed,
        k,
        tr(f"s12_ask_{k}", lang, **fields),
        choices,
        right,
        tr(f"s12_why_{k}", lang, **fields, width=H * Dp),
    )


# ---- S13: LayerNorm in a post-LN block: per token, one γ and β shared by all tokens
S13_KINDS = ("moments", "gamma", "where")
MOMENTS = ("0,1", "0,D", "1,0", "1,1")


def block_config(lang: str, seed: int) -> block_anatomy.Config:
    text = t("block_anatomy.default_text", lang)
    return block_anatomy.Config(norm="post", text=text, D=64, H=4, ff=4, seed=seed)


def block_state(cfg: block_anatomy.Config, lang: str, seed: int) -> str:
    return tr("block_state", lang, norm=t(f"names.norm_{cfg.norm}", lang), D=cfg.D, H=cfg.H)


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


def s13(cfg, r, lang, seed) -> Exercise:
    k = kind(seed, S13_KINDS)
    i = ln_token(r, seed)
    token = token_labels(r.tokens, escape=False)[i]
    N, D = len(r.tokens), cfg.D
    if k == "gamma":
        choices = numbers(
            ("D", D, f"{D} (= D)"),
            ("ND", N * D, f"{N * D} (= N × D)"),
            ("N", N, f"{N} (= N)"),
            ("1", 1, "1"),
        )
        return exercise(
            "S13", seed, k, tr("s13_ask_gamma", lang, N=N, D=D), choices, "D",
            tr("s13_why_gamma", lang, N=N, D=D),
        )  # fmt: skip
    if k == "where":
        keys = ("after", "before", "softmax", "end")
        return exercise(
            "S13", seed, k, tr("s13_ask_where", lang), choices_of("s13_where", keys, lang),
            "after", tr("s13_why_where", lang),
        )  # fmt: skip
    row = r.stats.iloc[i]
    got = np.array([row["mean_after"], row["var_after"]])
    targets = {"0,1": (0, 1), "0,D": (0, cfg.D), "1,0": (1, 0), "1,1": (1, 1)}
    right = min(MOMENTS, key=lambda m: float(np.hypot(*(got - targets[m]))))
    fields = dict(mean=got[0], var=got[1], mb=signed(row["mean_before"]), vb=row["var_before"])
    return exercise(
        "S13",
        seed,
        k,
        tr("s13_ask", lang, token=token, D=D, mb=signed(row["mean_before"]), vb=row["var_before"]),
        choices_of("s13", [m.replace(",", "_") for m in MOMENTS], lang, D=D),
        right.replace(",", "_"),
        tr("s13_why", lang, token=token, D=D, **fields),
    )


def s13_figure(cfg, r, lang, seed) -> go.Figure:
    if kind(seed, S13_KINDS) == "where":
        return block_charts.flow(r.steps, r.shapes, r.residuals)
    i = ln_token(r, seed)
    before = t("block_anatomy.before", lang, token=token_labels(r.tokens)[i])
    return block_charts.ln_token(
        r.ln_in[i],
        r.ln_hat[i],
        (before, t("block_anatomy.after", lang)),
        x_title=t("block_anatomy.feature", lang),
    )


# ---- S16: positional vectors p_i, added to x_i
S16_KINDS = ("distance", "norm", "same_word")
S16_WIDTHS = (16, 32, 64)


def pos_config(lang: str, seed: int) -> positional.Config:
    D = S16_WIDTHS[(seed // len(S16_KINDS)) % len(S16_WIDTHS)]
    return positional.Config(kind="sinusoidal", N=50, D=D, seed=0)


def pos_link(cfg: positional.Config, lang: str, seed: int) -> dict[str, str]:
    params = dict(kind=cfg.kind, N=str(cfg.N), D=str(cfg.D), seed=str(cfg.seed))
    params |= dict(cosine=str(cfg.cosine).lower(), d_pos=str(cfg.d_pos))
    params |= dict(head_seed=str(positional.SAME_WORD_SEED), s=f"{positional.SAME_WORD_SCALE:g}")
    return params | dict(text=t("positional.default_text", lang), mode="add")


def pos_state(cfg: positional.Config, lang: str, seed: int) -> str:
    return tr("s16_state", lang, N=cfg.N, D=cfg.D)


def s16_pair(N: int, seed: int) -> tuple[int, int]:
    """Positions i < j (0-based) the "same word" question names, drawn by ``seed``."""
    rng = np.random.default_rng(seed)
    i, j = sorted(int(x) for x in rng.choice(N, 2, replace=False))
    return i, j


def s16(cfg, r, lang, seed) -> Exercise:
    k = kind(seed, S16_KINDS)
    N, D = cfg.N, cfg.D
    if k == "distance":
        keys = ("gap", "i", "sum", "none")
        d = 3
        same = [float(r.G[i, i + d]) for i in range(N - d)]
        return exercise(
            "S16", seed, k, tr("s16_ask_distance", lang, N=N, D=D),
            choices_of("s16_distance", keys, lang), "gap",
            tr("s16_why_distance", lang, d=d, lo=min(same), hi=max(same)),
        )  # fmt: skip
    if k == "norm":
        diag = float(np.diag(r.G).mean())
        choices = numbers(
            ("half", D / 2, f"{D // 2} (= D/2)"),
            ("D", D, f"{D} (= D)"),
            ("1", 1, "1"),
            ("root", math.sqrt(D), f"{math.sqrt(D):.3g} (= √D)"),
        )
        return exercise(
            "S16", seed, k, tr("s16_ask_norm", lang, D=D), choices, "half",
            tr("s16_why_norm", lang, D=D, half=D // 2, g=diag),
        )  # fmt: skip
    i, j = s16_pair(N, seed)
    keys = ("differ", "equal", "word", "orthogonal")
    fields = dict(i=i + 1, j=j + 1, gij=float(r.G[i, j]), gii=float(r.G[i, i]))
    return exercise(
        "S16", seed, k, tr("s16_ask_same_word", lang, i=i + 1, j=j + 1),
        choices_of("s16_same_word", keys, lang, i=i + 1, j=j + 1), "differ",
        tr("s16_why_same_word", lang, **fields),
    )  # fmt: skip


def s16_figure(cfg, r, lang, seed) -> go.Figure:
    return pos_charts.matrix(
        r.G,
        title=t("tour.s16_title", lang),
        x_title=t("tour.position_j", lang),
        y_title=t("tour.position_i", lang),
    )
