"""The tour's exercises on the chapter's two laws: Var(qᵀk) = D, and 1 once divided by √D
(S3, the saturation lesson); f(PX) = P f(X) without positions only (S7, S15, the
equivariance lesson)."""

from __future__ import annotations

import math

import plotly.graph_objects as go

from ...charts import equivariance as eq_charts
from ...charts import saturation as sat_charts
from ...i18n import t
from ...limits import MAX_SEED
from .. import equivariance, saturation
from .exercise import Exercise, choices_of, exercise, kind, sentences, tr

# ---- S3: how Var(qᵀk) follows a change of D, with and without the division by √D
S3_D = 256  # the width the stop starts from; every D it moves to is on the lesson's grid
S3_KINDS = ("x2", "x4", "half", "scaled")  # D × 2, × 4, × ½; and × 4 with √D
MOVES = {"x2": (2.0, False), "x4": (4.0, False), "half": (0.5, False), "scaled": (4.0, True)}
FACTORS = {"half": 0.5, "1": 1.0, "2": 2.0, "4": 4.0}  # the choices: Var grows by


def s3_config(lang: str, seed: int) -> saturation.Config:
    return saturation.Config(N=16, rows=500, seed=seed)


def s3_widths(seed: int) -> tuple[int, int, bool]:
    """The widths D → D₂ example ``seed`` compares, and whether the scores are divided by √D."""
    factor, scaled = MOVES[kind(seed, S3_KINDS)]
    return S3_D, int(S3_D * factor), scaled


def s3_link(cfg: saturation.Config, lang: str, seed: int) -> dict[str, str]:
    params = dict(D=str(s3_widths(seed)[1]), N=str(cfg.N), rows=str(cfg.rows), seed=str(cfg.seed))
    return params | dict(sq=f"{cfg.sigma_q:g}", sk=f"{cfg.sigma_k:g}")


def s3_state(cfg: saturation.Config, lang: str, seed: int) -> str:
    return tr("s3_state", lang, D=s3_widths(seed)[1])


def variance(r: saturation.Result, D: int, scaled: bool) -> float:
    """The measured Var of the logits at width D, divided by √D or not."""
    part = r.curves[r.curves["scaled"] == scaled].set_index("D")
    return float(part.loc[D, "variance"])


def s3(cfg, r, lang, seed) -> Exercise:
    """The factor nearest (on a log scale) to the measured Var at D₂ over Var at D."""
    k = kind(seed, S3_KINDS)
    D1, D2, scaled = s3_widths(seed)
    v1, v2 = variance(r, D1, scaled), variance(r, D2, scaled)
    ratio = v2 / v1
    right = min(FACTORS, key=lambda f: abs(math.log(ratio / FACTORS[f])))
    fields = dict(D=D1, D2=D2, v1=v1, v2=v2, ratio=ratio)
    part = "scaled" if scaled else "raw"
    return exercise(
        "S3",
        seed,
        k,
        tr(f"s3_ask_{part}", lang, **fields),
        choices_of("s3", FACTORS, lang),
        right,
        tr(f"s3_why_{part}", lang, **fields),
    )


def s3_figure(cfg, r, lang, seed) -> go.Figure:
    names = (t("saturation.unscaled", lang), t("saturation.scaled", lang))
    return sat_charts.variance_curve(
        r.curves,
        r.slope,
        s3_widths(seed)[1],
        names,
        title=t("saturation.var_title", lang),
        y_title=t("saturation.variance", lang),
        slope_name=t("saturation.slope", lang),
    )


# ---- S7, S15: how large max |f(PX) − P f(X)| is, with and without positions; what the
# law says of f(PX) and of the maps A(PX); what breaks it
LARGE = 0.1  # far above rounding: the positions' own size
SIZES = ("small", "medium", "large")
S7_KINDS = ("none", "sinusoidal", "law", "maps")
S15_KINDS = ("sinusoidal", "none", "restore")
# the kinds asked of a law rather than a measured size: (their choices, the right one)
LAWS = {
    "law": (("Pf", "f", "PTf", "PfPT"), "Pf"),
    "maps": (("PAPT", "A", "PA", "APT"), "PAPT"),
    "restore": (("add", "heads", "root", "wider"), "add"),
}


def power(x: float) -> str:
    """10⁻⁵ for 1e-5: a bound as a student reads it."""
    digits = str(round(math.log10(x))).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return f"10{digits}"


def size(error: float) -> str:
    if error < equivariance.TOLERANCE:
        return "small"
    return "medium" if error < LARGE else "large"


def positions(claim: str, seed: int) -> str:
    """The positional encoding stop ``claim`` adds for example ``seed``."""
    k = kind(seed, S7_KINDS if claim == "S7" else S15_KINDS)
    return "sinusoidal" if k in ("sinusoidal", "restore") else "none"


def eq_config(claim: str):
    def config(lang: str, seed: int) -> equivariance.Config:
        text = t("equivariance.default_text", lang)
        return equivariance.Config(
            text=text,
            perm="shuffle",
            perm_seed=1 + (2 + seed) % MAX_SEED,
            pe=positions(claim, seed),
            seed=seed,
        )

    return config


def eq_link(cfg: equivariance.Config, lang: str, seed: int) -> dict[str, str]:
    params = dict(text=cfg.text, perm=cfg.perm, pseed=str(cfg.perm_seed), pe=cfg.pe)
    params |= dict(pe_mode=cfg.pe_mode, norm=cfg.norm, D=str(cfg.D), H=str(cfg.H))
    return params | dict(seed=str(cfg.seed), head="1")


def eq_state(cfg: equivariance.Config, lang: str, seed: int) -> str:
    pe = t(f"names.pe_{cfg.pe}", lang)
    return tr("eq_state", lang, pe=pe, D=cfg.D, H=cfg.H)


def equivariant(claim: str):
    kinds = S7_KINDS if claim == "S7" else S15_KINDS

    def ask(cfg, r, lang, seed) -> Exercise:
        k = kind(seed, kinds)
        order = " ".join(r.perm_tokens)
        given = tr("given_order", lang, before=" ".join(r.tokens), after=order)
        fields = dict(error=r.error, tol=power(equivariance.TOLERANCE), large=LARGE)
        note = tr("eq_identity", lang) if r.verdict == "identity" else ""
        if k in LAWS:  # the law's answer, whatever the example: P f(X), P A Pᵀ, adding pᵢ
            keys, right = LAWS[k]
            why = tr(f"eq_why_{k}", lang, **fields, e=r.attn_error)
            return exercise(
                claim,
                seed,
                k,
                tr(f"eq_ask_{k}", lang),
                choices_of(f"eq_{k}", keys, lang),
                right,
                sentences(lang, why, note),
                given,
            )
        right = size(r.error)
        return exercise(
            claim,
            seed,
            k,
            tr(f"eq_ask_{cfg.pe}", lang),
            choices_of("eq", SIZES, lang, tol=fields["tol"], large=LARGE),
            right,
            sentences(lang, tr(f"eq_why_{right}", lang, **fields), note),
            given,
        )

    return ask


def eq_maps_figure(cfg, r, lang, seed) -> go.Figure:
    titles = tuple(t(f"equivariance.t_{k}", lang) for k in ("A", "A_P", "PAPt"))
    return eq_charts.attention_triplet(
        r.A[0], r.A_P[0], r.PAPt[0], r.tokens, r.perm_tokens, titles, stacked=True
    )


def eq_any_figure(claim: str):
    kinds = S7_KINDS if claim == "S7" else S15_KINDS

    def figure(cfg, r, lang, seed) -> go.Figure:
        if kind(seed, kinds) == "maps":
            return eq_maps_figure(cfg, r, lang, seed)
        return eq_figure(cfg, r, lang, seed)

    return figure


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
