"""The tour's exercises on the scoring lesson (S1, S2, S4, S5, S6, S8, S9, S11).

Each reads ``scoring.run(cfg)`` at the configuration its link opens: the sentence and
query words of the example ``seed`` picks, the score's parameters drawn from ``seed``.
"""

from __future__ import annotations

import re

import numpy as np
import plotly.graph_objects as go

from ...charts import scoring as charts
from ...i18n import t
from ...limits import MAX_SEED
from ...scores import SCORES, spec_of
from ...text import token_labels
from .. import scoring
from .exercise import Choice, Exercise, exercise, in_order, pick_distractors, sentences, tr

EXAMPLES = 4  # example 0 is the scoring page's own sentence; tour.example<k>_* the others
TIE = 1e-4  # weights closer than this count as equal: neither may be the one wrong answer
_WORD = re.compile(r"\w")


def example(lang: str, seed: int) -> tuple[str, str]:
    """The sentence and the query words of example ``seed mod EXAMPLES``."""
    k = seed % EXAMPLES
    if k == 0:
        return t("scoring.default_text", lang), t("scoring.default_query", lang)
    return t(f"tour.example{k}_text", lang), t(f"tour.example{k}_query", lang)


def config(lang: str, seed: int, score: str, D: int = 64, shuffle: int = 1) -> scoring.Config:
    text, query = example(lang, seed)
    shuffle = 1 + (shuffle - 1 + seed) % MAX_SEED  # a new example, a new shuffle
    return scoring.Config(
        source="text", text=text, query=query, D=D, score=score, seed=seed, shuffle_seed=shuffle
    )


def link(cfg: scoring.Config, lang: str, seed: int) -> dict[str, str]:
    """The scoring page's controls, every one, as its URL holds them for ``cfg``."""
    params = dict(source=cfg.source, text=cfg.text, query=cfg.query, D=str(cfg.D), score=cfg.score)
    if "hidden" in spec_of(cfg.score).options:
        params["hidden"] = str(cfg.mlp_hidden)
    return params | dict(seed=str(cfg.seed), shuffle=str(cfg.shuffle_seed))


def word_values(tokens: list[str], weights: np.ndarray) -> dict[str, float]:
    """Each word's tallest bar (a repeated word has one vector: its copies weigh the same);
    punctuation is not offered as an answer."""
    values: dict[str, float] = {}
    for tok, a in zip(tokens, weights.tolist(), strict=True):
        if _WORD.search(tok):
            values[tok] = max(values.get(tok, 0.0), a)
    return values


def top_word(claim: str, r: scoring.Result, weights: np.ndarray, seed: int, lang: str, **why):
    """The word with the tallest bar of ``weights``, against three lower ones."""
    values = word_values(r.tokens, weights)
    words = list(values)
    right = max(words, key=values.get)
    keys = [right, *pick_distractors(words, values, right, 3, seed, TIE)]
    second = sorted(values.values())[-2]
    fields = dict(word=right, a=values[right], b=second, N=len(r.tokens), total=weights.sum())
    return exercise(
        claim,
        tr(f"{claim.lower()}_ask", lang, q=r.queries[0]),
        [Choice(k, k) for k in in_order(keys, words)],
        right,
        tr(f"{claim.lower()}_why", lang, **fields, **why),
        values,
        TIE,
    )


def weights_figure(r: scoring.Result, weights: np.ndarray, lang: str) -> go.Figure:
    title = f"{t('scoring.weights_title', lang)} · q = {r.queries[0]}"
    return charts.weights_bar(weights, r.tokens, title=title)


def favourite(r: scoring.Result, name: str) -> str:
    """The word with the tallest bar under score ``name`` (a row of ``by_score``)."""
    values = word_values(r.tokens, r.by_score[r.names.index(name)])
    return max(values, key=values.get)


def s1(cfg, r, lang, seed) -> Exercise:
    return top_word("S1", r, r.weights, seed, lang)


def s4(cfg, r, lang, seed) -> Exercise:
    dot = favourite(r, "dot")
    return top_word("S4", r, r.weights, seed, lang, dot=dot)


def s5(cfg, r, lang, seed) -> Exercise:
    return top_word("S5", r, r.weights, seed, lang, scaled=favourite(r, "scaled_dot"))


def s2(cfg, r, lang, seed) -> Exercise:
    """The score that puts the largest share of the weight on one word (a row of the map)."""
    values = dict(r.top_share)
    right = max(r.names, key=values.get)
    keys = [right, *pick_distractors(r.names, values, right, 3, seed, TIE)]
    why = dict(best=t(SCORES[right].label, lang), top=values[right], root=cfg.D**0.5)
    why |= dict(dot=values["dot"], scaled=values["scaled_dot"])
    return exercise(
        "S2",
        tr("s2_ask", lang, q=r.queries[0], D=cfg.D),
        [Choice(k, t(SCORES[k].label, lang)) for k in in_order(keys, r.names)],
        right,
        tr("s2_why", lang, **why),
        values,
        TIE,
    )


def s2_figure(cfg, r, lang, seed) -> go.Figure:
    names = [t(SCORES[n].short_label, lang) for n in r.names]
    title = t("scoring.all_title", lang, n=len(r.names))
    return charts.matrix(r.by_score, token_labels(r.tokens), names, title=title)


SHUFFLE = ("follow", "stay", "neither")


def s6(cfg, r, lang, seed) -> Exercise:
    """Whether the weights, after the shuffle, follow their words or stay at their places."""
    moved = {"follow": r.follows, "stay": r.stays}
    held = [k for k, v in moved.items() if v < scoring.ZERO_TOL]
    if len(held) != 1 and min(moved.values()) < scoring.ZERO_TOL:
        raise ValueError("S6: the weights are uniform: they both follow and stay")
    right = held[0] if held else "neither"
    why = dict(follows=scoring.change(r.follows), stays=scoring.change(r.stays))
    return exercise(
        "S6",
        tr("s6_ask", lang, q=r.queries[0]),
        [Choice(k, tr(f"s6_{k}", lang)) for k in SHUFFLE],
        right,
        tr(f"s6_why_{right}", lang, **why),
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
