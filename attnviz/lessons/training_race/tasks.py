"""The training race's tasks: copy, reverse and sort a sequence of digits; the random
batches a model learns from, the fixed probe sequence whose maps a race records, and how
well a map attends where its task needs, (1/n) Σ_i Σ_{j ∈ T(i)} a_ij.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import torch

if TYPE_CHECKING:
    from .config import Config


def make_batch(task: str, cfg: Config, g: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """Random inputs (B, n) and their targets for ``task``."""
    x = torch.randint(0, cfg.vocab, (cfg.batch, cfg.n), generator=g)
    if task == "copy":
        return x, x.clone()
    if task == "reverse":
        return x, x.flip(-1)
    return x, x.sort(-1).values


PROBE_SEED = 0  # the probe sequence is the same for every race and seed


def probe(cfg: Config) -> np.ndarray:
    """The fixed sequence whose attention maps a race records: n distinct digits if V ≥ n.

    Shape:
        returns (n,) int64 tokens
    """
    g = torch.Generator().manual_seed(PROBE_SEED)
    if cfg.n <= cfg.vocab:
        return torch.randperm(cfg.vocab, generator=g)[: cfg.n].numpy()
    return torch.randint(0, cfg.vocab, (cfg.n,), generator=g).numpy()


def pattern(task: str, x: np.ndarray) -> np.ndarray:
    """T[i, j]: key j holds the token that output i needs (copy: j = i, reverse:
    j = n + 1 − i, sort: x_j is the i-th smallest, so ties give a row several keys).

    Shape:
        x (n,) -> (n, n) bool, [query_pos, key_pos]
    """
    n = len(x)
    if task == "copy":
        return np.eye(n, dtype=bool)
    if task == "reverse":
        return np.eye(n, dtype=bool)[::-1].copy()
    return np.sort(x)[:, None] == np.asarray(x)[None, :]


def pattern_scores(weights: np.ndarray, target: np.ndarray) -> np.ndarray:
    """Each map's mean share of a row's weight on the target keys, (1/n) Σ_i Σ_{j∈T(i)} a_ij.

    Uniform rows score ``chance(target)``; a head that attends only to T scores 1.

    Shape:
        weights (..., n, n), target (n, n) -> (...)
    """
    return (np.asarray(weights, np.float32) * target).sum(-1).mean(-1)


def chance(target: np.ndarray) -> float:
    """The score of uniform rows: the mean share of keys in T(i), 1/n with distinct digits."""
    return float(target.mean())
