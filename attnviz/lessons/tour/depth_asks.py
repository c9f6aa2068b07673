"""The tour's exercise on S14 (pre-LN trains deep stacks more stably), asked on the depth
lesson's trend: the last layer's gradient against depth, read with the depth page's own rule
(``depth_gradients.direction``) and words."""

from __future__ import annotations

import math

import plotly.graph_objects as go

from ...charts import depth_gradients as depth_charts
from ...i18n import t
from .. import depth_gradients
from .exercise import Choice, Exercise, choices_of, exercise, kind, tr

# ---- S14: pre-LN trains deep stacks more stably: the last layer's gradient against depth
S14_KINDS = ("post", "pre", "which")
PLACEMENTS = ("pre", "post", "both", "neither")
S14_WIDTHS = (128, 64, 256)


def depth_config(lang: str, seed: int) -> depth_gradients.TrendConfig:
    # unit inputs, the paper's setting (inputs of length √D would hide pre-LN's fall: the
    # stream is then mostly the input at every depth); another round of kinds, another D
    D = S14_WIDTHS[(seed // len(S14_KINDS)) % len(S14_WIDTHS)]
    return depth_gradients.TrendConfig(D=D, seeds=3, x_scale="unit")


def depth_link(cfg: depth_gradients.TrendConfig, lang: str, seed: int) -> dict[str, str]:
    params = dict(L="12", D=str(cfg.D), seeds=str(cfg.seeds), param="W_2", x=cfg.x_scale)
    return params | dict(loss=cfg.loss, shape="false")


def depth_state(cfg: depth_gradients.TrendConfig, lang: str, seed: int) -> str:
    scale = t(f"depth_gradients.x_{cfg.x_scale}", lang)
    return tr("s14_state", lang, D=cfg.D, scale=scale, seeds=cfg.seeds)


def s14(cfg, r, lang, seed) -> Exercise:
    k = kind(seed, S14_KINDS)
    lo, hi = depth_gradients.RATIO_DEPTHS
    scale = t(f"depth_gradients.x_{cfg.x_scale}", lang)
    fields = dict(lo=lo, hi=hi, scale=scale, post=r.ratios["post"], pre=r.ratios["pre"])
    fields |= dict(post_dir=direction_word(r.ratios["post"], lang))
    fields |= dict(pre_dir=direction_word(r.ratios["pre"], lang), root=math.sqrt(lo / hi))
    if k == "which":
        return exercise(
            "S14",
            seed,
            k,
            tr("s14_ask_which", lang, **fields),
            choices_of("s14", PLACEMENTS, lang),
            "pre",
            tr("s14_why_which", lang, **fields),
        )
    right = depth_gradients.direction(r.ratios[k])
    placement = tr(f"s14_{k}", lang)
    return exercise(
        "S14",
        seed,
        k,
        tr("s14_ask_trend", lang, placement=placement, **fields),
        direction_choices(lang),
        right,
        tr(f"s14_why_{k}", lang, **fields),
    )


def direction_choices(lang: str) -> list[Choice]:
    return [Choice(d, direction_word(d, lang, named=True)) for d in depth_gradients.DIRECTIONS]


def direction_word(ratio_or_name, lang: str, named: bool = False) -> str:
    """The depth page's word for a change (its one rule: ``depth_gradients.direction``)."""
    name = ratio_or_name if named else depth_gradients.direction(ratio_or_name)
    return t(f"depth_gradients.dir_{name}", lang)


def s14_figure(cfg, r, lang, seed) -> go.Figure:
    fit = r.fits["pre"]  # c/√L drawn only where it fits pre-LN's means, with its R²
    line = (*r.reference, t("depth_gradients.reference_r2", lang, r2=fit.r2)) if fit.fits else None
    return depth_charts.band(
        r.spread,
        "L",
        names={n: t(f"names.norm_{n}", lang) for n in depth_gradients.NORMS},
        title=tr("s14_title", lang),
        log=True,
        x_title=t("depth_gradients.depth", lang),
        y_title=t("depth_gradients.grad", lang),
        reference=line,
    )
