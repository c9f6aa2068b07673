"""The tour's exercises on the scoring lesson's weights (S1, S2, S4, S5, S6); its outputs
(S8, S9, S11) are ``output_asks``.

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
from .exercise import Choice, Exercise, exercise, in_order, pick_distractors, tr

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
