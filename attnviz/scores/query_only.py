"""S6: weights from the query alone, a = softmax(W q); the sources are never read."""

from __future__ import annotations

import math

import numpy as np
import torch
from torch import nn

from ..device import to_numpy
from ..limits import MAX_N, check_int
from ..params import normal
from .spec import ScoreSpec, Terms


class QueryOnlyScore(nn.Module):
    """S6: a = softmax(W q); W ∈ ℝ^{N_max×D} has one row per source position, and N
    sources use its first N rows."""

    def __init__(
        self,
        d: int,
        heads: int | None = None,
        *,
        generator: torch.Generator,
        dtype: torch.dtype = torch.float32,
        n_max: int = MAX_N,
    ) -> None:
        super().__init__()
        n_max = check_int("n_max", n_max, 1, MAX_N)
        hdim = () if heads is None else (heads,)
        self.W = normal(*hdim, n_max, d, std=1 / math.sqrt(d), generator=generator, dtype=dtype)

    def forward(self, z: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
        n = z.shape[-2]
        if n > self.W.shape[-2]:
            raise ValueError(f"query_only: N must be in [1, {self.W.shape[-2]}], got N={n}")
        return q @ self.W[..., :n, :].transpose(-1, -2)  # (..., M, D) @ (..., D, N) -> (..., M, N)


class QueryOnly(ScoreSpec):
    name = "query_only"
    module = QueryOnlyScore
    formula = (
        r"r(\mathbf{z}_j, \mathbf{q}) = (W \mathbf{q})_j,"
        r"\quad W \in \mathbb{R}^{N \times {D}}"
    )
    head_formula = r"(S_h)_{ij} = (W_h \mathbf{q}_{h,i})_j"
    scaled = False
    reads_keys = False
    growth = "s"  # only q grows by s: no key is read
    inner_product = False
    options = ("n_max",)
    label = "names.query_only"
    short_label = "scoring.row_query_only"
    head_label = "names.query_only_head"
    terms_title = "steps.terms_query_only"
    qk_note = "steps.qk_no_keys"  # in place of the picture: there is no query–key space

    def terms(self, score: nn.Module, h: int, q_i: np.ndarray, K: np.ndarray) -> Terms:
        W = to_numpy(score.W[h, : len(K)])  # (N, D'): row l belongs to source position l
        return Terms(W * q_i, W, q_i, {})

    def term_symbol(self, i: int, j: int, h: int) -> str:
        return (
            rf"(W_{{{h}}} \mathbf{{q}}_{{{i}}})_{{{j}}}"
            rf" = \sum_{{d=1}}^{{D'}} (W_{{{h}}})_{{{j},d}}\, q_{{{i},d}}"
        )

    def factor_names(self, i: int, j: int) -> tuple[str, str]:
        return f"W_{j},d", f"q_{i},d"


SPEC = QueryOnly()
