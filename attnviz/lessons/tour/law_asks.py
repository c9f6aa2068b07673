"""The tour's exercises on the chapter's two laws: Var(qᵀk) = D (S3, the saturation lesson)
and f(PX) = P f(X) without positions only (S7, S15, the equivariance lesson)."""

from __future__ import annotations

import math

import plotly.graph_objects as go

from ...charts import equivariance as eq_charts
from ...charts import saturation as sat_charts
from ...i18n import t
from ...limits import MAX_SEED
from .. import equivariance, saturation
from .exercise import Choice, Exercise, exercise, sentences, tr

# S3: the factor by which Var(qᵀk) grows from D to 2D, against three it is not
FACTORS = {"1": 1.0, "sqrt2": math.sqrt(2.0), "2": 2.0, "4": 4.0}
S3_D = 1024  # the width the stop looks at; 2D is on the lesson's grid too


def s3_config(lang: str, seed: int) -> saturation.Config:
    return saturation.Config(N=16, rows=500, seed=seed)


def s3_link(cfg: saturation.Config, lang: str, seed: int) -> dict[str, str]:
    params = dict(D=str(S3_D), N=str(cfg.N), rows=str(cfg.rows), seed=str(cfg.seed))
    return params | dict(sq=f"{cfg.sigma_q:g}", sk=f"{cfg.sigma_k:g}")


def variance(r: saturation.Result, D: int) -> float:
    """The measured Var(qᵀk) at width D, unscaled."""
    raw = r.curves[~r.curves["scaled"]].set_index("D")
    return float(raw.loc[D, "variance"])


def s3(cfg, r, lang, seed) -> Exercise:
    """The factor nearest (on a log scale) to Var at 2D over Var at D."""
    v1, v2 = variance(r, S3_D), variance(r, 2 * S3_D)
    ratio = v2 / v1
    closeness = {k: -abs(math.log(ratio / f)) for k, f in FACTORS.items()}
    right = max(FACTORS, key=closeness.get)
    return exercise(
        "S3",
        tr("s3_ask", lang, D=S3_D, D2=2 * S3_D),
        [Choice(k, tr(f"s3_{k}", lang)) for k in FACTORS],
        right,
        tr("s3_why", lang, D=S3_D, D2=2 * S3_D, v1=v1, v2=v2, ratio=ratio),
        closeness,
        0.0,
    )


def s3_figure(cfg, r, lang, seed) -> go.Figure:
    names = (t("saturation.unscaled", lang), t("saturation.scaled", lang))
    return sat_charts.variance_curve(
        r.curves,
        r.slope,
        S3_D,
        names,
        title=t("saturation.var_title", lang),
        y_title=t("saturation.variance", lang),
        slope_name=t("saturation.slope", lang),
    )


# S7, S15: how large max |f(PX) − P f(X)| is, by order of magnitude
LARGE = 0.1  # far above rounding: the positions' own size
SIZES = ("small", "medium", "large")


def power(x: float) -> str:
    """10⁻⁵ for 1e-5: a bound as a student reads it."""
    digits = str(round(math.log10(x))).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return f"10{digits}"


def size(error: float) -> str:
    if error < equivariance.TOLERANCE:
        return "small"
    return "medium" if error < LARGE else "large"


def eq_config(pe: str):
    def config(lang: str, seed: int) -> equivariance.Config:
        text = t("equivariance.default_text", lang)
        return equivariance.Config(
            text=text, perm="shuffle", perm_seed=1 + (2 + seed) % MAX_SEED, pe=pe, seed=seed
        )

    return config


def eq_link(cfg: equivariance.Config, lang: str, seed: int) -> dict[str, str]:
    params = dict(text=cfg.text, perm=cfg.perm, pseed=str(cfg.perm_seed), pe=cfg.pe)
    params |= dict(pe_mode=cfg.pe_mode, norm=cfg.norm, D=str(cfg.D), H=str(cfg.H))
    return params | dict(seed=str(cfg.seed), head="1")


def equivariant(claim: str):
    def ask(cfg, r, lang, seed) -> Exercise:
        right = size(r.error)
        order = " ".join(r.perm_tokens)
        fields = dict(error=r.error, tol=power(equivariance.TOLERANCE), large=LARGE)
        why = tr(f"eq_why_{right}", lang, **fields)
        if r.verdict == "identity":  # the shuffle drew the order it started from
            why = sentences(lang, why, tr("eq_identity", lang))
        return exercise(
            claim,
            tr(f"{claim.lower()}_ask", lang, order=order),
            [Choice(k, tr(f"eq_{k}", lang, tol=fields["tol"], large=LARGE)) for k in SIZES],
            right,
            why,
        )

    return ask


def eq_figure(cfg, r, lang, seed) -> go.Figure:
    rel = r.error / r.out_scale
    note = t("equivariance.rounding_only", lang, error=r.error, rel=rel) if r.rounding_only else ""
    return eq_charts.difference_map(
        r.diff,
        r.perm_tokens,
        scale=r.out_scale,
        note=note,
        bar_title=t("equivariance.diff_bar", lang, scale=r.out_scale),
        title=t("equivariance.diff_title", lang),
        x_title=t("equivariance.dim", lang),
        dim_name=t("equivariance.dim_short", lang),
    )
