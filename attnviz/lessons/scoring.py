"""One query q over N sources z_1..z_N, for every score function (S1–S6, S8)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from ..attention import attend
from ..limits import MAX_N, check_choice, check_int
from ..scoring import SCORES, make_score
from ..text import embed, random_tokens, tokenize, word_vector

SOURCES = ("text", "random")


@dataclass(frozen=True)
class ScoringResult:
    tokens: list[str]  # labels of the sources
    names: list[str]  # score names, the rows below
    scores: np.ndarray  # (S, N) r(z_i, q)
    weights: np.ndarray  # (S, N) a_i = softmax(r)
    attended: np.ndarray  # (S, D) q̃ = Σ a_i z_i
    perm: np.ndarray  # (N,) the shuffle: shuffled position j holds source perm[j]
    shuffled_weights: np.ndarray  # (S, N) weights over the shuffled sources, by position


@torch.inference_mode()
def run(
    source: str,
    text: str,
    query: str,
    N: int,
    D: int,
    seed: int,
    mlp_hidden: int = 16,
    shuffle_seed: int = 0,
) -> ScoringResult:
    """Score q against every source with each function; also against a shuffled copy.

    The sources are shuffled by a permutation drawn from ``shuffle_seed`` (0: no shuffle).
    """
    check_choice("source", source, SOURCES)
    if source == "text":
        tokens = tokenize(text)
        Z = embed(tokens, D)  # (N, D): a repeated word gets the same vector
    else:
        N = check_int("N", N, 1, MAX_N)
        tokens = [f"z{i + 1}" for i in range(N)]
        Z = random_tokens(N, D, seed)
    q_words = tokenize(query)
    q = word_vector(q_words[0], D) if source == "text" else random_tokens(1, D, seed + 1)[0]
    g = torch.Generator().manual_seed(shuffle_seed)
    perm = torch.randperm(len(tokens), generator=g) if shuffle_seed else torch.arange(len(tokens))
    names = list(SCORES)
    rows = {key: [] for key in ("scores", "weights", "attended", "shuffled")}
    for name in names:
        r = make_score(name, D, seed=seed, hidden=mlp_hidden)
        s = r(Z, q[None])[0]  # (N,)
        out, a = attend(s, Z)  # q̃ = Σ a_i z_i (S8)
        rows["scores"].append(s)
        rows["weights"].append(a)
        rows["attended"].append(out)
        rows["shuffled"].append(torch.softmax(r(Z[perm], q[None])[0], -1))
    stack = {k: torch.stack(v).float().numpy() for k, v in rows.items()}
    return ScoringResult(
        tokens=tokens,
        names=names,
        scores=stack["scores"],
        weights=stack["weights"],
        attended=stack["attended"],
        perm=perm.numpy(),
        shuffled_weights=stack["shuffled"],
    )
