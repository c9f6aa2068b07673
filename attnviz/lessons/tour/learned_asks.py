"""The tour's exercises on the scores with learnable parameters (S4: a matrix W between z and
q; S5: an MLP of [z; q]; S6: weights from q alone, softmax(Wq)), asked on the scoring
lesson's result at the configuration its link opens (``scoring_asks.config``)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ...charts import scoring as charts
from ...i18n import t
from ...scores import SCORES
from .. import scoring
from .exercise import (
    Choice,
    Exercise,
    NoQuestion,
    choices_of,
    exercise,
    kind,
    numbers,
    shaped,
    signed,
    tr,
)
from .scoring_asks import (
    bars,
    config,
    other_words,
    row,
    scores_given,
    softmax,
    unique_extreme,
    width,
)

# ---- S4: a learnable matrix W between z and q
S4_KINDS = ("identity", "zero", "negate", "count")
S4_WIDTHS = (16, 32, 64)


def s4_config(lang: str, seed: int) -> scoring.Config:
    return config(lang, seed, "bilinear", D=width(seed, S4_WIDTHS, len(S4_KINDS)))


def s4(cfg, r, lang, seed) -> Exercise:
    k = kind(seed, S4_KINDS)
    s, N, D = r.scores.astype(np.float64), len(r.tokens), cfg.D
    given = scores_given(r, s, lang, "zᵀWq/√D")
    if k == "identity":
        names = ("scaled_dot", "dot", "query_only", "mlp")
        return exercise(
            "S4",
            seed,
            k,
            tr("s4_ask_identity", lang),
            [Choice(n, t(SCORES[n].label, lang)) for n in names],
            "scaled_dot",
            tr("s4_why_identity", lang),
            "",
        )
    if k == "zero":
        keys = ("uniform", "zero", "one_hot", "same")
        return exercise(
            "S4",
            seed,
            k,
            tr("s4_ask_zero", lang, N=N),
            choices_of("s4_zero", keys, lang, N=N, u=1 / N),
            "uniform",
            tr("s4_why_zero", lang, N=N, u=1 / N),
            "",
        )
    if k == "negate":
        top = unique_extreme(s, r.tokens, largest=True)
        low = unique_extreme(s, r.tokens, largest=False)
        word, new = r.tokens[top], r.tokens[low]
        others = other_words(r.tokens, {word, new}, 2, seed)
        choices = [Choice(w, w) for w in (new, word, *others)]
        flipped = softmax(-s)
        return exercise(
            "S4",
            seed,
            k,
            tr("s4_ask_negate", lang, word=word, a=r.weights[top]),
            choices,
            new,
            tr("s4_why_negate", lang, word=word, new=new, s=signed(s[low]), a=flipped[low]),
            given,
        )
    choices = numbers(
        ("D2", D * D, f"{D * D} (= D²)"),
        ("D", D, f"{D} (= D)"),
        ("2D", 2 * D, f"{2 * D} (= 2D)"),
        ("DN", D * N, f"{D * N} (= N × D)"),
    )
    return exercise(
        "S4",
        seed,
        k,
        tr("s4_ask_count", lang, D=D, N=N),
        choices,
        "D2",
        tr("s4_why_count", lang, D=D, n=D * D, N=N),
        "",
    )


def s4_figure(cfg, r, lang, seed) -> go.Figure:
    k = kind(seed, S4_KINDS)
    title = f"{t('scoring.weights_title', lang)} · q = {r.queries[0]}"
    series = {tr("fig_w_random", lang): r.weights}
    if k == "identity":
        series[tr("fig_w_identity", lang)] = row(r, "scaled_dot")
    elif k == "zero":
        series[tr("fig_w_zero", lang)] = np.full(len(r.tokens), 1 / len(r.tokens))
    elif k == "negate":
        series[tr("fig_w_negated", lang)] = softmax(-r.scores.astype(np.float64))
    return bars(r, series, title, lang)


# ---- S5: an MLP of the concatenation [z; q]
S5_KINDS = ("input", "output", "similar")
S5_WIDTHS = (16, 32, 64)


def s5_config(lang: str, seed: int) -> scoring.Config:
    return config(lang, seed, "mlp", D=width(seed, S5_WIDTHS, len(S5_KINDS)))


def s5(cfg, r, lang, seed) -> Exercise:
    k = kind(seed, S5_KINDS)
    D, N = cfg.D, len(r.tokens)
    if k == "input":
        choices = numbers(
            ("2D", 2 * D, f"{2 * D} (= 2D)"),
            ("D", D, f"{D} (= D)"),
            ("D2", D * D, f"{D * D} (= D²)"),
            ("N", N, f"{N} (= N)"),
        )
        return exercise(
            "S5",
            seed,
            k,
            tr("s5_ask_input", lang, D=D),
            choices,
            "2D",
            tr("s5_why_input", lang, D=D, n=2 * D, hidden=cfg.mlp_hidden),
        )
    if k == "output":
        keys = ("one", "vector", "weight", "row")
        return exercise(
            "S5",
            seed,
            k,
            tr("s5_ask_output", lang),
            choices_of("s5_output", keys, lang, D=D, N=N),
            "one",
            tr("s5_why_output", lang, N=N),
        )
    mlp, dot = r.scores.astype(np.float64), row(r, "scaled_dot")
    m, d = r.tokens[int(mlp.argmax())], r.tokens[int(dot.argmax())]
    here = tr("s5_same" if m == d else "s5_differ", lang, mlp=m, dot=d)
    keys = ("no", "always", "never", "large")
    return exercise(
        "S5",
        seed,
        k,
        tr("s5_ask_similar", lang, q=r.queries[0]),
        choices_of("s5_similar", keys, lang),
        "no",
        tr("s5_why_similar", lang, here=here),
    )


def s5_figure(cfg, r, lang, seed) -> go.Figure:
    series = {
        t(SCORES["mlp"].short_label, lang): r.weights,
        t(SCORES["scaled_dot"].short_label, lang): row(r, "scaled_dot"),
    }
    return bars(r, series, f"{t('scoring.weights_title', lang)} · q = {r.queries[0]}", lang)


# ---- S6: weights from q alone, a = softmax(Wq)
S6_KINDS = ("shuffle", "other", "shape")
SHUFFLE = ("follow", "stay", "neither")


def s6_config(lang: str, seed: int) -> scoring.Config:
    score = "scaled_dot" if kind(seed, S6_KINDS) == "other" else "query_only"
    return config(lang, seed, score, shuffle=3)


def s6(cfg, r, lang, seed) -> Exercise:
    k = kind(seed, S6_KINDS)
    N, D = len(r.tokens), cfg.D
    name = t(SCORES[cfg.score].label, lang)
    if k == "shape":
        choices = shaped("ND", {"ND": (N, D), "DD": (D, D), "DN": (D, N), "NN": (N, N)})
        return exercise(
            "S6",
            seed,
            k,
            tr("s6_ask_shape", lang, N=N, D=D),
            choices,
            "ND",
            tr("s6_why_shape", lang, N=N, D=D),
        )
    moved = {"follow": r.follows, "stay": r.stays}
    held = [key for key, v in moved.items() if v < scoring.ZERO_TOL]
    if len(held) != 1 and min(moved.values()) < scoring.ZERO_TOL:
        raise NoQuestion("the weights are uniform: they both follow and stay")
    right = held[0] if held else "neither"
    order = " ".join(r.tokens[j] for j in r.perm)
    why = dict(follows=scoring.change(r.follows), stays=scoring.change(r.stays))
    return exercise(
        "S6",
        seed,
        k,
        tr("s6_ask", lang, q=r.queries[0], score=name),
        choices_of("s6", SHUFFLE, lang),
        right,
        tr(f"s6_why_{right}", lang, **why),
        tr("given_shuffle", lang, before=" ".join(r.tokens), after=order),
    )


def s6_figure(cfg, r, lang, seed) -> go.Figure:
    series = {t("scoring.original", lang): r.weights, t("scoring.shuffled", lang): r.shuffled}
    fig = charts.grouped_bars(
        series,
        charts.position_labels(r.tokens, r.perm),
        title=t(SCORES[cfg.score].label, lang),
        y_title=t("scoring.weight_axis", lang),
    )
    return fig.update_xaxes(title=t("scoring.position", lang))
