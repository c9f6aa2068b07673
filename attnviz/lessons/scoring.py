"""One query q over N sources z_1..z_N, for every score function (S1–S6, S8).

Each score r(z_i, q) rates the sources; a = softmax(r) weighs them and q̃ = Σ a_i z_i
reads them (S8). Shuffling the sources tells content from position: a score that reads
z gives each source its weight wherever it stands, query_only weighs the positions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from .. import formulas
from ..attention import attend
from ..limits import MAX_D, MAX_MLP_HIDDEN, MAX_N, MAX_SEED, check_choice, check_int
from ..scoring import SCORES, make_score
from ..text import embed, random_tokens, tokenize, word_vector

SOURCES = ("text", "random")
WIDTHS = tuple(2**k for k in range(1, 11))  # the widths D the page offers, 2 … 1024


@dataclass(frozen=True)
class Config:
    source: str = "text"  # text: the words of a sentence; random: N random vectors
    text: str = ""  # the sentence (source "text"): each token is a source
    query: str = ""  # its first token is the query q (source "text")
    N: int = 8  # sources (source "random")
    D: int = 64  # width of the sources and the query
    score: str = "scaled_dot"  # the score whose scores, weights and shuffle are shown
    mlp_hidden: int = 16  # hidden width of the MLP score
    seed: int = 0  # parameters of the scores, random vectors
    shuffle_seed: int = 0  # the shuffle of the sources; 0 keeps their order

    def __post_init__(self) -> None:
        check_choice("source", self.source, SOURCES)
        if self.source == "text":
            tokenize(self.text)
            tokenize(self.query)
        else:
            check_int("N", self.N, 1, MAX_N)
        check_int("D", self.D, 1, MAX_D)
        check_choice("score", self.score, SCORES)
        check_int("mlp_hidden", self.mlp_hidden, 1, MAX_MLP_HIDDEN)
        check_int("seed", self.seed, 0, MAX_SEED)
        check_int("shuffle_seed", self.shuffle_seed, 0, MAX_SEED)


@dataclass(frozen=True)
class Result:
    tokens: list[str]  # labels of the sources
    names: list[str]  # every score name, the rows of by_score
    by_score: np.ndarray  # (S, N) a = softmax(r) of every score on the same sources
    scores: np.ndarray  # (N,) r(z_i, q) of the chosen score
    weights: np.ndarray  # (N,) a_i = softmax(r)_i
    attended: np.ndarray  # (D,) q̃ = Σ a_i z_i
    perm: np.ndarray  # (N,) the shuffle: shuffled position j holds source perm[j]
    shuffled: np.ndarray  # (N,) weights over the shuffled sources, by position
    follows: float  # max_j |a'_j − a_{perm[j]}|: 0 when each weight moves with its source
    stays: float  # max_j |a'_j − a_j|: 0 when each weight stays with its position
    formulas: list[str]  # LaTeX of what was computed


def sources(cfg: Config) -> tuple[list[str], torch.Tensor, torch.Tensor]:
    """The source labels, Z (N, D) and q (D,) of ``cfg``: word vectors or random ones."""
    if cfg.source == "text":
        tokens = tokenize(cfg.text)
        Z = embed(tokens, cfg.D)  # (N, D): a repeated word gets the same vector
        return tokens, Z, word_vector(tokenize(cfg.query)[0], cfg.D)
    tokens = [f"z{i + 1}" for i in range(cfg.N)]
    return tokens, random_tokens(cfg.N, cfg.D, cfg.seed), random_tokens(1, cfg.D, cfg.seed + 1)[0]


@torch.inference_mode()
def run(cfg: Config) -> Result:
    """Score q against every source with each function; the chosen one also after a shuffle.

    Shape:
        Z (N, D), q (D,) -> by_score (S, N), scores / weights / shuffled (N,), attended (D,)
    """
    tokens, Z, q = sources(cfg)
    N = len(tokens)
    g = torch.Generator().manual_seed(cfg.shuffle_seed)
    perm = torch.randperm(N, generator=g) if cfg.shuffle_seed else torch.arange(N)  # (N,)
    r = {name: make_score(name, cfg.D, seed=cfg.seed, hidden=cfg.mlp_hidden) for name in SCORES}
    by_score = torch.stack([torch.softmax(f(Z, q[None])[0], -1) for f in r.values()])  # (S, N)
    scores = r[cfg.score](Z, q[None])[0]  # (N,) r(z_i, q)
    attended, weights = attend(scores, Z)  # (D,) q̃ = Σ a_i z_i (S8), (N,) a
    shuffled = torch.softmax(r[cfg.score](Z[perm], q[None])[0], -1)  # (N,) over Z[perm]
    weights, shuffled, perm = weights.float().numpy(), shuffled.float().numpy(), perm.numpy()
    return Result(
        tokens=tokens,
        names=list(r),
        by_score=by_score.float().numpy(),
        scores=scores.float().numpy(),
        weights=weights,
        attended=attended.float().numpy(),
        perm=perm,
        shuffled=shuffled,
        follows=float(np.abs(shuffled - weights[perm]).max()),
        stays=float(np.abs(shuffled - weights).max()),
        formulas=[formulas.score(cfg.score), formulas.single_query(cfg.score)],
    )
