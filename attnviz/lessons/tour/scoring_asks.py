"""The tour's exercises on the scores (S1, S2, S4, S5, S6), asked on the scoring lesson's
result; its outputs (S8, S9, S11) are ``output_asks``.

Each reads ``scoring.run(cfg)`` at the configuration its link opens: the sentence and query
words of the example ``seed`` picks, the score's parameters drawn from ``seed``. The word
vectors are hashes of the words and carry no meaning, so no question asks which word a
score "should" prefer: each asks what the claim's formula does to the scores and weights,
with this example's numbers shown before it.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from ...charts import scoring as charts
from ...i18n import t
from ...limits import MAX_SEED
from ...scores import SCORES, spec_of
from .. import scoring
from .exercise import (
    Choice,
    Exercise,
    NoQuestion,
    choices_of,
    exercise,
    kind,
    listing,
    numbers,
    signed,
    tr,
)

EXAMPLES = 4  # example 0 is the scoring page's own sentence; tour.example<k>_* the others
TIE = 1e-6  # weights or scores closer than this count as equal
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


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


def state(cfg: scoring.Config, lang: str) -> str:
    """What the link sets up: the score and the width actually computed."""
    return tr("state_scoring", lang, score=t(SCORES[cfg.score].label, lang), D=cfg.D)


def width(seed: int, widths: tuple[int, ...], kinds: int) -> int:
    """The width D of example ``seed``: a new one after each round of the stop's kinds."""
    return widths[(seed // kinds) % len(widths)]


def scores_given(r: scoring.Result, values: np.ndarray, lang: str, name: str) -> str:
    """The example's scores, source by source, as the question reads them."""
    pairs = [(tok, signed(v)) for tok, v in zip(r.tokens, values.tolist(), strict=True)]
    return tr("given_scores", lang, q=r.queries[0], name=name, values=listing(lang, pairs))


def unique_extreme(values: np.ndarray, tokens: list[str], largest: bool) -> int:
    """The index of the largest (or smallest) value, refused when another word ties it."""
    i = int(values.argmax() if largest else values.argmin())
    ties = [j for j, v in enumerate(values) if abs(v - values[i]) < TIE and tokens[j] != tokens[i]]
    if ties:
        raise NoQuestion(f"{tokens[i]} ties {[tokens[j] for j in ties]}")
    return i


def other_words(tokens: list[str], exclude: set[str], n: int, seed: int) -> list[str]:
    """Up to ``n`` distinct words of ``tokens`` not in ``exclude``, drawn by ``seed``."""
    words = [w for w in dict.fromkeys(tokens) if w not in exclude and any(c.isalnum() for c in w)]
    rng = np.random.default_rng(seed)
    return [words[i] for i in sorted(rng.permutation(len(words))[:n])]


def bars(r: scoring.Result, series: dict[str, np.ndarray], title: str, lang: str) -> go.Figure:
    return charts.grouped_bars(
        series,
        charts.position_labels(r.tokens),
        title=title,
        y_title=t("scoring.weight_axis", lang),
    )


# ---- S1: the weights are positive and add up to 1, whatever the scores
S1_KINDS = ("shift", "sum", "double", "lowest")


def s1_config(lang: str, seed: int) -> scoring.Config:
    return config(lang, seed, "dot", D=4)


def shift(seed: int) -> int:
    """S1's constant c added to every score."""
    return 1 + (seed // len(S1_KINDS)) % 3


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max())
    return e / e.sum()


def s1(cfg, r, lang, seed) -> Exercise:
    k = kind(seed, S1_KINDS)
    N, a, s = len(r.tokens), r.weights.astype(np.float64), r.scores.astype(np.float64)
    given = scores_given(r, s, lang, "zᵀq")
    if k == "shift":
        c = shift(seed)
        moved = float(np.abs(softmax(s + c) - a).max())
        keys = ("same", "plus", "times", "sharper")
        return exercise(
            "S1",
            seed,
            k,
            tr("s1_ask_shift", lang, c=c),
            choices_of("s1_shift", keys, lang, c=c, e=f"e{str(c).translate(SUPERSCRIPT)}"),
            "same",
            tr("s1_why_shift", lang, c=c, d=moved),
            given,
        )
    if k == "sum":
        total, score_sum = float(a.sum()), float(s.sum())
        choices = numbers(
            ("one", 1.0, "1"),
            ("N", float(N), tr("s1_sum_N", lang, N=N)),
            ("scores", score_sum, tr("s1_sum_scores", lang, s=signed(score_sum))),
            ("more", math.nan, tr("s1_sum_more", lang)),
        )
        return exercise(
            "S1",
            seed,
            k,
            tr("s1_ask_sum", lang, N=N),
            choices,
            "one",
            tr("s1_why_sum", lang, N=N, total=total),
            given,
        )
    if k == "double":
        i = unique_extreme(s, r.tokens, largest=True)
        doubled = softmax(2 * s)
        keys = ("rises", "falls", "same", "uniform")
        return exercise(
            "S1",
            seed,
            k,
            tr("s1_ask_double", lang, word=r.tokens[i], a=a[i]),
            choices_of("s1_double", keys, lang, u=1 / N),
            "rises",
            tr("s1_why_double", lang, word=r.tokens[i], a=a[i], b=doubled[i]),
            given,
        )
    i = unique_extreme(s, r.tokens, largest=False)
    keys = ("positive", "negative", "zero", "largest")
    return exercise(
        "S1",
        seed,
        k,
        tr("s1_ask_lowest", lang, word=r.tokens[i], s=signed(s[i])),
        choices_of("s1_lowest", keys, lang),
        "positive",
        tr("s1_why_lowest", lang, word=r.tokens[i], a=a[i], N=N, total=a.sum()),
        given,
    )


def s1_figure(cfg, r, lang, seed) -> go.Figure:
    k = kind(seed, S1_KINDS)
    s = r.scores.astype(np.float64)
    title = f"{t('scoring.weights_title', lang)} · q = {r.queries[0]}"
    base = {tr("fig_softmax", lang): r.weights}
    if k == "shift":
        c = shift(seed)
        return bars(r, base | {tr("fig_shifted", lang, c=c): softmax(s + c)}, title, lang)
    if k == "double":
        return bars(r, base | {tr("fig_doubled", lang): softmax(2 * s)}, title, lang)
    total = tr("fig_total", lang, total=float(r.weights.sum()))
    return charts.weights_bar(r.weights, r.tokens, title=f"{title} · {total}")


# ---- S2: the scaled dot product zᵀq / √D
S2_KINDS = ("compute", "order", "top")
S2_WIDTHS = (16, 64, 256)


def s2_config(lang: str, seed: int) -> scoring.Config:
    return config(lang, seed, "scaled_dot", D=width(seed, S2_WIDTHS, len(S2_KINDS)))


def row(r: scoring.Result, name: str) -> np.ndarray:
    return r.by_score[r.names.index(name)].astype(np.float64)


def s2(cfg, r, lang, seed) -> Exercise:
    k = kind(seed, S2_KINDS)
    root = math.sqrt(cfg.D)
    dots = r.scores.astype(np.float64) * root  # zᵀq: the scaled scores times √D
    given = scores_given(r, dots, lang, "zᵀq")
    if k == "compute":
        i = int(np.abs(dots).argmax())
        d = dots[i]
        value = lambda x: signed(x)  # noqa: E731
        choices = numbers(
            ("root", d / root, value(d / root)),
            ("raw", d, value(d)),
            ("D", d / cfg.D, value(d / cfg.D)),
            ("times", d * root, value(d * root)),
        )
        fields = dict(word=r.tokens[i], s=signed(d), D=cfg.D, root=f"{root:g}")
        return exercise(
            "S2",
            seed,
            k,
            tr("s2_ask_compute", lang, **fields),
            choices,
            "root",
            tr("s2_why_compute", lang, **fields, r=signed(d / root)),
            given,
        )
    plain, scaled = row(r, "dot"), row(r, "scaled_dot")
    top = unique_extreme(dots, r.tokens, largest=True)
    word = r.tokens[top]
    if k == "order":
        others = other_words(r.tokens, {word}, 3, seed)
        if len(others) < 2:
            raise NoQuestion("too few words")
        choices = [Choice(w, w) for w in (word, *others)]
        return exercise(
            "S2",
            seed,
            k,
            tr("s2_ask_order", lang, word=word, D=cfg.D, root=f"{root:g}"),
            choices,
            word,
            tr("s2_why_order", lang, word=word, a=plain[top], b=scaled[top], root=f"{root:g}"),
            given,
        )
    N = len(r.tokens)
    keys = ("lower", "higher", "same", "uniform")
    return exercise(
        "S2",
        seed,
        k,
        tr("s2_ask_top", lang, word=word, a=plain[top], root=f"{root:g}", D=cfg.D),
        choices_of("s2_top", keys, lang, u=1 / N, N=N),
        "lower",
        tr("s2_why_top", lang, word=word, a=plain[top], b=scaled[top], root=f"{root:g}", u=1 / N),
        given,
    )


def s2_figure(cfg, r, lang, seed) -> go.Figure:
    root = math.sqrt(cfg.D)
    if kind(seed, S2_KINDS) == "compute":
        dots = r.scores.astype(np.float64) * root
        series = {"zᵀq": dots, f"zᵀq / √D (√D = {root:g})": dots / root}
        fig = bars(r, series, tr("fig_scores", lang, q=r.queries[0]), lang)
        return fig.update_yaxes(title=tr("fig_score_axis", lang))
    series = {
        t(SCORES["dot"].short_label, lang): row(r, "dot"),
        t(SCORES["scaled_dot"].short_label, lang): row(r, "scaled_dot"),
    }
    return bars(r, series, f"{t('scoring.weights_title', lang)} · q = {r.queries[0]}", lang)
