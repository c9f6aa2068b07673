"""Queries q_1..q_M over N sources z_1..z_N, for every score function (S1–S6, S8, S9, S11).

Each score r(z_i, q) rates the sources; a = softmax(r) weighs them and q̃ = Σ a_i z_i
reads them (S8). The first query q = q_1 is shown with every score; all M queries at
once, Q̃ = softmax(Q Xᵀ / √D) X = 𝒜_D(Q, X, X) with X = [z_1, …, z_N]ᵀ, is the same
arithmetic row by row (S9, S11). Shuffling the sources tells content from position: a
score that reads z gives each source its weight wherever it stands, query_only weighs
the positions.

A query that is itself one of the sources scores ‖q‖²/√D ≈ √D against itself, far above
the ±1 of unrelated random vectors: that self-match, not saturation, then takes the
weight. ``Result.self_index`` says when it happens.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import torch

from .. import formulas
from ..attend import attend, scaled_dot_product_attention
from ..errors import InputError
from ..limits import MAX_D, MAX_MLP_HIDDEN, MAX_N, MAX_SEED, check_choice, check_int
from ..scores import SCORES, make_score, spec_of
from ..text import embed, random_tokens, tokenize

SOURCES = ("text", "random")
WIDTHS = tuple(2**k for k in range(1, 11))  # the widths D the page offers, 2 … 1024
MAX_QUERIES = 32  # M: an MLP score holds M · N · hidden numbers at once
# a change of weight below this is float32 rounding (weights of order 0.1 carry ~1e-8 of
# it), not a weight that moved; the smallest real change is many orders larger
ZERO_TOL_EXP = -6
ZERO_TOL = 10.0**ZERO_TOL_EXP
_WORD = re.compile(r"\w")


def change(x: float) -> str:
    """A largest change of weight as a student reads it: "≈ 0" below ZERO_TOL, else three
    decimals (0.268), or three significant digits where those would show 0.000."""
    if abs(x) < ZERO_TOL:
        return "≈ 0"
    return f"{x:.3f}" if abs(x) >= 1e-3 else f"{x:.3g}"


def query_words(text: str) -> list[str]:
    """The queries typed in ``text``: its tokens that hold a letter or digit.

    Punctuation separates queries without being one: 「ペット、猫」 → ペット / 猫.
    """
    blank = isinstance(text, str) and not text.strip()  # nothing typed: no query, not no text
    words = [] if blank else [w for w in tokenize(text) if _WORD.search(w)]
    if not words:
        raise InputError("the queries must hold at least 1 word", "no_queries", hi=MAX_QUERIES)
    if len(words) > MAX_QUERIES:
        raise InputError(
            f"at most {MAX_QUERIES} queries (M in [1, {MAX_QUERIES}]), got {len(words)}",
            "range",
            name="M",
            lo=1,
            hi=MAX_QUERIES,
            value=len(words),
        )
    return words


@dataclass(frozen=True)
class Config:
    source: str = "text"  # text: the words of a sentence; random: N random vectors
    text: str = ""  # the sentence (source "text"): each token is a source
    query: str = ""  # the query words q_1 … q_M (source "text"); q = q_1
    N: int = 8  # sources (source "random")
    M: int = 3  # queries (source "random")
    D: int = 64  # width of the sources and the queries
    score: str = "scaled_dot"  # the score whose scores, weights and shuffle are shown
    mlp_hidden: int = 16  # hidden width of the MLP score
    seed: int = 0  # parameters of the scores, random vectors
    shuffle_seed: int = 0  # the shuffle of the sources; 0 keeps their order

    def __post_init__(self) -> None:
        check_choice("source", self.source, SOURCES)
        if self.source == "text":
            tokenize(self.text)
            query_words(self.query)
        else:
            check_int("N", self.N, 1, MAX_N)
            check_int("M", self.M, 1, MAX_QUERIES)
        check_int("D", self.D, 1, MAX_D)
        check_choice("score", self.score, SCORES)
        check_int("mlp_hidden", self.mlp_hidden, 1, MAX_MLP_HIDDEN)
        check_int("seed", self.seed, 0, MAX_SEED)
        check_int("shuffle_seed", self.shuffle_seed, 0, MAX_SEED)


@dataclass(frozen=True)
class Result:
    tokens: list[str]  # labels of the sources
    queries: list[str]  # labels of the queries q_1 … q_M
    names: list[str]  # every score name, the rows of by_score
    by_score: np.ndarray  # (S, N) a = softmax(r(·, q)) of every score on the same sources
    top_share: dict[str, float]  # per score: the largest weight one word gets (copies summed)
    scores: np.ndarray  # (N,) r(z_i, q) of the chosen score
    weights: np.ndarray  # (N,) a_i = softmax(r)_i
    attended: np.ndarray  # (D,) q̃ = Σ a_i z_i
    many: np.ndarray  # (M, N) every query's weights, row m = softmax_i r(z_i, q_m)
    many_attended: np.ndarray  # (M, D) Q̃ = A X: row m is q̃_m
    self_index: int | None  # the first source that is q itself (its word), else None
    self_score: float | None  # then ‖q‖²/√D, its scaled dot product with itself
    many_self: list[tuple[int, float]]  # (m, weight q_m puts on its own word) for source words
    perm: np.ndarray  # (N,) the shuffle: shuffled position j holds source perm[j]
    shuffled: np.ndarray  # (N,) weights over the shuffled sources, by position
    follows: float  # max_j |a'_j − a_{perm[j]}|: 0 when each weight moves with its source
    stays: float  # max_j |a'_j − a_j|: 0 when each weight stays with its position
    formulas: list[str]  # LaTeX of the one-query computation
    many_formulas: list[str]  # LaTeX of the M-query computation


def sources(cfg: Config) -> tuple[list[str], torch.Tensor, list[str], torch.Tensor]:
    """Source labels, X (N, D), query labels and Q (M, D) of ``cfg``: words or random vectors."""
    if cfg.source == "text":
        tokens, queries = tokenize(cfg.text), query_words(cfg.query)
        # (N, D), (M, D): a word has one vector wherever it occurs
        return tokens, embed(tokens, cfg.D), queries, embed(queries, cfg.D)
    tokens = [f"z{i + 1}" for i in range(cfg.N)]
    queries = [f"q{m + 1}" for m in range(cfg.M)]
    # not from cfg.seed itself, which draws the scores' parameters: query_only's W, drawn
    # first from the same stream, would be X / √D, and its scores those of scaled_dot
    X = random_tokens(cfg.N, cfg.D, cfg.seed + 1)  # (N, D)
    return tokens, X, queries, random_tokens(cfg.M, cfg.D, cfg.seed + 2)  # (M, D)


def word_share(weights: torch.Tensor, tokens: list[str]) -> float:
    """The largest total weight on one word: a repeated word's copies share one vector."""
    share: dict[str, float] = {}
    for tok, a in zip(tokens, weights.tolist(), strict=True):
        share[tok] = share.get(tok, 0.0) + a
    return max(share.values())


@torch.inference_mode()
def run(cfg: Config) -> Result:
    """Score q = q_1 against every source with each function; the chosen one also for all
    M queries at once and after a shuffle.

    Shape:
        X (N, D), Q (M, D) -> by_score (S, N), scores / weights / shuffled (N,),
        attended (D,), many (M, N), many_attended (M, D)
    """
    tokens, X, queries, Q = sources(cfg)
    N, q = len(tokens), Q[0]  # q: the first query, (D,)
    g = torch.Generator().manual_seed(cfg.shuffle_seed)
    perm = torch.randperm(N, generator=g) if cfg.shuffle_seed else torch.arange(N)  # (N,)
    # one query against N ≤ 512 sources per score: on the CPU, cheaper than moving it
    r = {name: make_score(name, cfg.D, seed=cfg.seed, hidden=cfg.mlp_hidden) for name in SCORES}
    by_score = torch.stack([torch.softmax(f(X, q[None])[0], -1) for f in r.values()])  # (S, N)
    scores = r[cfg.score](X, q[None])[0]  # (N,) r(z_i, q)
    attended, weights = attend(scores, X)  # (D,) q̃ = Σ a_i z_i (S8), (N,) a
    if spec_of(cfg.score).operator:  # S11: the operator itself, Q̃ = 𝒜_D(Q, X, X)
        many_attended, many = scaled_dot_product_attention(Q, X, X)  # (M, D), (M, N)
    else:  # S9 with score r: each row its own softmax
        many_attended, many = attend(r[cfg.score](X, Q), X)  # (M, D), (M, N)
    shuffled = torch.softmax(r[cfg.score](X[perm], q[None])[0], -1)  # (N,) over X[perm]
    self_index = tokens.index(queries[0]) if cfg.source == "text" and queries[0] in tokens else None
    self_score = None if self_index is None else float(q @ q) / cfg.D**0.5
    many_self = [
        (m, sum(float(many[m, i]) for i, tok in enumerate(tokens) if tok == word))
        for m, word in enumerate(queries)
        if cfg.source == "text" and word in tokens
    ]
    weights, shuffled, perm = weights.float().numpy(), shuffled.float().numpy(), perm.numpy()
    return Result(
        tokens=tokens,
        queries=queries,
        names=list(r),
        by_score=by_score.float().numpy(),
        top_share={name: word_share(row, tokens) for name, row in zip(r, by_score, strict=True)},
        scores=scores.float().numpy(),
        weights=weights,
        attended=attended.float().numpy(),
        many=many.float().numpy(),
        many_attended=many_attended.float().numpy(),
        self_index=self_index,
        self_score=self_score,
        many_self=many_self,
        perm=perm,
        shuffled=shuffled,
        follows=float(np.abs(shuffled - weights[perm]).max()),
        stays=float(np.abs(shuffled - weights).max()),
        formulas=[
            formulas.score(cfg.score),
            *formulas.same_as(cfg.score),
            formulas.single_query(cfg.score),
        ],
        many_formulas=formulas.many_queries(cfg.score),
    )
