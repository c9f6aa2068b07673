"""The tour's exercises on what the scoring lesson's attention puts out (S8, S9, S11): q̃'s
size, the query of M whose row of A is the sharpest, and Q̃'s shape. Each reads
``scoring.run(cfg)`` at the configuration its link opens (``scoring_asks.config``).
"""

from __future__ import annotations

import plotly.graph_objects as go

from ...charts import scoring as charts
from ...i18n import t
from ...text import token_labels
from .exercise import Choice, Exercise, exercise, in_order, pick_distractors, sentences, tr
from .scoring_asks import TIE


def counts(choices: dict[str, int], right: str) -> list[str]:
    """The keys of ``choices`` whose count differs from the right one's (N = D would make
    "N numbers" right too), the right one first."""
    return [right, *(k for k, n in choices.items() if k != right and n != choices[right])]


def s8(cfg, r, lang, seed) -> Exercise:
    """How many numbers q̃ holds: D, whatever N."""
    N, D = len(r.tokens), r.attended.shape[0]
    sizes = {"N": N, "D": D, "ND": N * D, "1": 1}
    keys = counts(sizes, "D")
    return exercise(
        "S8",
        tr("s8_ask", lang, N=N, D=cfg.D),
        [Choice(k, tr(f"s8_{k}", lang, n=sizes[k])) for k in sizes if k in keys],
        "D",
        tr("s8_why", lang, N=N, D=D, k=min(D, 32)),
    )


def s8_figure(cfg, r, lang, seed) -> go.Figure:
    k = min(cfg.D, 32)
    fig = charts.weights_bar(
        r.attended[:k],
        [str(j) for j in range(1, k + 1)],
        title=t("scoring.attended_title", lang, k=k, D=cfg.D),
        numbered=False,
    )
    return fig.update_xaxes(title=t("scoring.component", lang))


def s9(cfg, r, lang, seed) -> Exercise:
    """The query whose row of A puts the most weight on one source."""
    values: dict[str, float] = {}
    for word, row in zip(r.queries, r.many, strict=True):
        values[word] = max(values.get(word, 0.0), float(row.max()))
    words = list(values)
    right = max(words, key=values.get)
    keys = [right, *pick_distractors(words, values, right, 3, seed, TIE)]
    m = r.queries.index(right)
    source = r.tokens[int(r.many[m].argmax())]
    why = tr("s9_why", lang, word=right, a=values[right], source=source)
    if source == right:  # the query is a word of the sentence: it matches itself
        why = sentences(lang, why, tr("s9_self", lang, word=right, root=cfg.D**0.5))
    return exercise(
        "S9",
        tr("s9_ask", lang, M=len(r.queries)),
        [Choice(k, k) for k in in_order(keys, words)],
        right,
        why,
        values,
        TIE,
    )


def s9_figure(cfg, r, lang, seed) -> go.Figure:
    return charts.matrix(
        r.many,
        token_labels(r.tokens),
        token_labels(r.queries),
        title=t("scoring.many_weights", lang),
        x_title=t("scoring.source_axis", lang),
        y_title=t("scoring.query_axis", lang),
    )


def s11(cfg, r, lang, seed) -> Exercise:
    """The shape of Q̃ = 𝒜_D(Q, X, X): M × D, one output of width D per query."""
    M, D = r.many_attended.shape
    N = len(r.tokens)
    shapes = {"MD": (M, D), "MN": (M, N), "ND": (N, D), "DD": (D, D)}
    keys = [k for k, s in shapes.items() if k == "MD" or s != shapes["MD"]]
    return exercise(
        "S11",
        tr("s11_ask", lang, M=M, N=N, D=cfg.D),
        [Choice(k, f"{shapes[k][0]} × {shapes[k][1]}") for k in keys],
        "MD",
        tr("s11_why", lang, M=M, N=N, D=D, k=min(D, 32)),
    )


def s11_figure(cfg, r, lang, seed) -> go.Figure:
    k = min(cfg.D, 32)
    return charts.matrix(
        r.many_attended[:, :k],
        [str(j) for j in range(1, k + 1)],
        token_labels(r.queries),
        title=t("scoring.many_attended", lang, k=k, D=cfg.D),
        x_title=t("scoring.component", lang),
        zmin=None,
        zmax=None,
        colorscale="RdBu_r",
    )
