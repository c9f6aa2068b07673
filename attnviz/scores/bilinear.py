"""S4: the bilinear ("general") score r(z, q) = zᵀ W q / √D."""

from __future__ import annotations

import math

import numpy as np
import torch
from torch import nn

from ..device import to_numpy
from ..params import normal
from .spec import ScoreSpec, Terms


class BilinearScore(nn.Module):
    """S4: r(z, q) = zᵀ W q / √D with a learnable W ∈ ℝ^{D×D}."""

    def __init__(
        self,
        d: int,
        heads: int | None = None,
        *,
        generator: torch.Generator,
        dtype: torch.dtype = torch.float32,
    ) -> None:
        super().__init__()
        self.d = d
        hdim = () if heads is None else (heads,)
        self.W = normal(*hdim, d, d, std=1 / math.sqrt(d), generator=generator, dtype=dtype)

    def forward(self, z: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
        Wq = q @ self.W.transpose(-1, -2)  # (..., M, D): row m is (W q_m)ᵀ
        return Wq @ z.transpose(-1, -2) / math.sqrt(self.d)  # (..., M, N)


class Bilinear(ScoreSpec):
    name = "bilinear"
    module = BilinearScore
    formula = (
        r"r(\mathbf{z}, \mathbf{q}) = \frac{\mathbf{z}^\top W \mathbf{q}}{\sqrt{{D}}},"
        r"\quad W \in \mathbb{R}^{{D} \times {D}}"
    )
    head_formula = r"S_h = \frac{Q_h W_h^\top K_h^\top}{\sqrt{D'}}"
    scaled = True
    reads_keys = True
    growth = "s2"
    inner_product = True  # of W_h q_i and k_j
    qk_query = (  # the vector a query–key picture draws for query i
        r"\mathbf{q}'_i = W_h \mathbf{q}_i,\quad s_{ij} = \frac{\mathbf{q}'^\top_i"
        r" \mathbf{k}_j}{\sqrt{D'}}"
    )
    label = "names.bilinear"
    short_label = "scoring.row_bilinear"
    head_label = "names.bilinear_head"
    terms_title = "steps.terms_bilinear"
    qk_note = "steps.qk_bilinear"

    def terms(self, score: nn.Module, h: int, q_i: np.ndarray, K: np.ndarray) -> Terms:
        Wq_i = to_numpy(score.W[h]) @ q_i  # (D',): W_h q_i
        return Terms(Wq_i * K, Wq_i, K, {})  # (N, D')

    def term_symbol(self, i: int, j: int, h: int) -> str:
        return rf"\sum_{{d=1}}^{{D'}} (W_{{{h}}} \mathbf{{q}}_{{{i}}})_d\, k_{{{j},d}}"

    def factor_names(self, i: int, j: int) -> tuple[str, str]:
        return f"(W q_{i})_d", f"k_{j},d"

    def query_points(self, score: nn.Module, h: int, Q: np.ndarray) -> np.ndarray:
        return Q @ to_numpy(score.W[h]).T  # row i is (W_h q_i)ᵀ, as BilinearScore computes


SPEC = Bilinear()
