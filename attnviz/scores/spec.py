"""What a score function is, for every layer that shows or follows it.

A ``ScoreSpec`` holds everything the app knows about one score r(z, q): the module that
computes it, its formulas, whether it divides by √D, whether it reads the keys, how a
scale s on W^Q and W^K changes it, how one s_ij splits into terms for the step-through,
and the keys of its strings. The engine, the formulas, the lessons and the pages ask the
spec; none of them branches on a score's name.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from torch import nn

GROWTHS = ("s2", "s", "bounded")  # how scores grow when W^Q, W^K are multiplied by s
BASE = ("generator", "dtype")  # what every score's module takes


@dataclass(frozen=True)
class Terms:
    """One query's scores against every key as sums: s_i· = c · terms.sum(-1).

    ``left`` · ``right`` = ``terms`` elementwise; each is (N, T) or (T,) when the same for
    every key. ``parts``: other vectors of the score's own, (N, T) or (T,), for the tables.
    """

    terms: np.ndarray  # (N, T)
    left: np.ndarray
    right: np.ndarray
    parts: dict[str, np.ndarray]

    def of_key(self, j: int) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """(left, right, parts) of key j, each (T,)."""

        def row(a: np.ndarray) -> np.ndarray:
            return a[j] if a.ndim == 2 else a

        return row(self.left), row(self.right), {k: row(v) for k, v in self.parts.items()}


class ScoreSpec:
    """One score function r(z, q) and everything shown about it. Subclass per score.

    Formulas take ``{D}``, the width symbol: D for one query, D′ inside a head.
    """

    name: str
    module: type[nn.Module]
    formula: str  # r(z, q), LaTeX with {D}
    head_formula: str  # one head's score matrix S_h, LaTeX
    scaled: bool  # divides by √D (√D′ in a head)
    reads_keys: bool  # False: the weights come from the query alone (S6)
    growth: str  # one of GROWTHS: scores × s², × s, or bounded, for W^Q, W^K ← s·W^Q, s·W^K
    inner_product: bool  # s_ij = c · q'_iᵀ k_j: a query–key picture's inner products
    operator: bool = False  # softmax(Q Kᵀ/√D) V is the chapter's operator 𝒜_D (S11)
    options: tuple[str, ...] = ()  # keyword options its module takes: "hidden", "n_max"
    term_index: str = "d"  # what the terms of s_ij run over
    qk_query: str | None = None  # LaTeX of q'_i, the query point of a q–k picture, if not q_i
    # a published score this one is, term for term: LaTeX of both, aligned, and the i18n key
    # of the note that matches their symbols (S5: the MLP score is Bahdanau's additive one)
    same_as: str | None = None
    same_as_note: str | None = None
    # i18n keys: the name in a menu, short (a chart's row) and per head, the terms chart's
    # title and x axis, a note under the query–key picture (or in its place)
    label: str
    short_label: str
    head_label: str
    terms_title: str
    terms_axis: str = "steps.terms_x"
    qk_note: str | None = None

    def build(self, d: int, heads: int | None, **kwargs) -> nn.Module:
        """The module for width ``d`` (per head when ``heads``); options it does not take
        (see ``options``) are left out."""
        options = {k: v for k, v in kwargs.items() if k in self.options or k in BASE}
        return self.module(d, heads, **options)

    def score_formula(self, width: str = "D") -> str:
        return self.formula.replace("{D}", width)

    def terms(self, score: nn.Module, h: int, q_i: np.ndarray, K: np.ndarray) -> Terms:
        """Head ``h``'s scores of query vector ``q_i`` (D′,) against keys ``K`` (N, D′), as
        terms before the scale c (float64)."""
        raise NotImplementedError

    def term_symbol(self, i: int, j: int, h: int) -> str:
        """LaTeX of Σ_t terms_t for query i, key j, head h (1-based)."""
        raise NotImplementedError

    def factor_names(self, i: int, j: int) -> tuple[str, str]:
        """Column names of ``left`` and ``right`` in the terms' CSV (1-based)."""
        raise NotImplementedError

    def query_points(self, score: nn.Module, h: int, Q: np.ndarray) -> np.ndarray:
        """(N, D′) the vectors a query–key picture draws for the queries: q_i by default."""
        return Q


def scale(spec: ScoreSpec, d_head: int) -> float:
    """c in s_ij = c · Σ terms: 1/√D′ for a scaled score, else 1."""
    return 1 / d_head**0.5 if spec.scaled else 1.0
