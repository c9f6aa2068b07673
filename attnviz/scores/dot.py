"""The unscaled dot product, the contrast case of S2: r(z, q) = zᵀq."""

from __future__ import annotations

import math

import numpy as np
import torch
from torch import nn

from .spec import ScoreSpec, Terms


class DotScore(nn.Module):
    """r(z, q) = zᵀq, divided by √D when ``scale_by_sqrt_d`` (the scaled dot product).

    It has no parameters; it takes ``heads``, ``generator`` and ``dtype`` like every score,
    so every spec builds its module the same way.
    """

    scale_by_sqrt_d = False

    def __init__(
        self,
        d: int,
        heads: int | None = None,
        *,
        generator: torch.Generator | None = None,
        dtype: torch.dtype = torch.float32,
    ) -> None:
        super().__init__()
        self.d = d

    def forward(self, z: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
        if self.scale_by_sqrt_d:
            q = q * (1 / math.sqrt(self.d))  # scaling q (M·D) is cheaper than scores (M·N)
        return q @ z.transpose(-1, -2)  # (..., M, D) @ (..., D, N) -> (..., M, N)


class Dot(ScoreSpec):
    name = "dot"
    module = DotScore
    formula = r"r(\mathbf{z}, \mathbf{q}) = \mathbf{z}^\top \mathbf{q}"
    head_formula = r"S_h = Q_h K_h^\top"
    scaled = False
    reads_keys = True
    growth = "s2"  # q and k both grow by s
    inner_product = True
    label = "names.dot"
    short_label = "scoring.row_dot"
    head_label = "names.dot_head"
    terms_title = "steps.terms_dot"

    def terms(self, score: nn.Module, h: int, q_i: np.ndarray, K: np.ndarray) -> Terms:
        return Terms(q_i * K, q_i, K, {})  # (N, D'): q_i,d k_l,d

    def term_symbol(self, i: int, j: int, h: int) -> str:
        return rf"\sum_{{d=1}}^{{D'}} q_{{{i},d}}\, k_{{{j},d}}"

    def factor_names(self, i: int, j: int) -> tuple[str, str]:
        return f"q_{i},d", f"k_{j},d"


SPEC = Dot()
