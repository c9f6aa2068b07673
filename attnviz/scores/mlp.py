"""S5: the MLP score on the concatenation. With its one tanh hidden layer it is Bahdanau et
al.'s (2015) additive attention e_ij = v_aᵀ tanh(W_a s_{i−1} + U_a h_j), term for term; more
hidden layers would generalise it."""

from __future__ import annotations

import math

import numpy as np
import torch
from torch import nn

from ..device import to_numpy
from ..limits import MAX_MLP_HIDDEN, check_int
from ..params import normal
from .spec import ScoreSpec, Terms


class MLPScore(nn.Module):
    """S5: r(z, q) = MLP([z; q]) = w_2ᵀ tanh(W_1 [z; q] + b_1), in column vectors.

    W_1 = [W_1^z, W_1^q] is split into the blocks acting on z and on q, so the (M, N) grid
    of concatenations is never materialised: W_1 [z; q] = W_1^z z + W_1^q q. The tensors
    ``W_1z``, ``W_1q`` hold (W_1^z)ᵀ, (W_1^q)ᵀ, (D, hidden), for rows of Z and Q.

    The hidden units of all (M, N) pairs, (..., M, N, hidden), are computed a block of
    queries (and, if one query's row is too wide, of keys) at a time, each block at most
    ``chunk`` elements, so that the peak memory stays bounded whatever M, N and H are.
    Each score is computed by the same operations in the same order in any block, so the
    result does not depend on ``chunk``.
    """

    chunk = 2**20  # elements of the hidden units computed at once: 4 MB in float32

    def __init__(
        self,
        d: int,
        heads: int | None = None,
        *,
        generator: torch.Generator,
        dtype: torch.dtype = torch.float32,
        hidden: int = 16,
    ) -> None:
        super().__init__()
        hidden = check_int("mlp_hidden", hidden, 1, MAX_MLP_HIDDEN)
        hdim = () if heads is None else (heads,)
        one = () if heads is None else (1, 1)  # broadcasts b_1, w_2 over (M, N) per head
        std = 1 / math.sqrt(2 * d)
        self.W_1z = normal(*hdim, d, hidden, std=std, generator=generator, dtype=dtype)
        self.W_1q = normal(*hdim, d, hidden, std=std, generator=generator, dtype=dtype)
        self.b_1 = nn.Parameter(torch.zeros(*hdim, *one, hidden, dtype=dtype))
        self.w_2 = normal(
            *hdim, *one, hidden, std=1 / math.sqrt(hidden), generator=generator, dtype=dtype
        )

    def forward(self, z: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
        zh = z @ self.W_1z  # (..., N, hidden)
        qh = q @ self.W_1q  # (..., M, hidden)
        lead = torch.broadcast_shapes(zh.shape[:-2], qh.shape[:-2], self.b_1.shape[:-3])
        (M, hidden), N = qh.shape[-2:], zh.shape[-2]
        row = math.prod(lead) * N * hidden  # elements of one query's hidden units
        rows = max(1, self.chunk // max(row, 1))  # queries per block
        cols = N if rows > 1 else max(1, self.chunk * N // max(row, 1))  # keys per block
        blocks = [
            torch.cat(
                [
                    self._block(qh[..., i : i + rows, :], zh[..., j : j + cols, :])
                    for j in range(0, N, cols)
                ],
                dim=-1,
            )
            for i in range(0, M, rows)
        ]
        return torch.cat(blocks, dim=-2)  # (..., M, N)

    def _block(self, qh: torch.Tensor, zh: torch.Tensor) -> torch.Tensor:
        """w_2ᵀ tanh(W_1^q q + W_1^z z + b_1) for a block of queries (..., m, hidden) and keys
        (..., n, hidden): (..., m, n). tanh works in place on the block's own sum, which
        autograd allows (its backward reads its output, not its input)."""
        hidden = torch.tanh_(qh.unsqueeze(-2) + zh.unsqueeze(-3) + self.b_1)  # (..., m, n, hidden)
        return (hidden * self.w_2).sum(-1)  # (..., m, n)


class MLP(ScoreSpec):
    name = "mlp"
    module = MLPScore
    formula = (
        r"\begin{aligned}r(\mathbf{z}, \mathbf{q}) &= \mathbf{w}_2^\top"
        r" \tanh\!\left(W_1 [\mathbf{z}; \mathbf{q}] + \mathbf{b}_1\right) \\"
        r" &= \mathbf{w}_2^\top \tanh\!\left(W_1^z \mathbf{z} + W_1^q \mathbf{q}"
        r" + \mathbf{b}_1\right)\end{aligned}"
    )
    head_formula = (
        r"(S_h)_{ij} = \mathbf{w}_{2,h}^\top \tanh\!\left(W_{1,h}"
        r" [\mathbf{k}_{h,j}; \mathbf{q}_{h,i}] + \mathbf{b}_{1,h}\right)"
    )
    scaled = False
    reads_keys = True
    growth = "bounded"  # tanh saturates: |s_ij| ≤ ‖w_2‖₁ whatever s is
    inner_product = False
    options = ("hidden",)
    term_index = "u"
    label = "names.mlp"
    short_label = "scoring.row_mlp"
    head_label = "names.mlp_head"
    terms_title = "steps.terms_mlp"
    terms_axis = "steps.terms_x_mlp"
    qk_note = "steps.qk_mlp"
    same_as = (  # the app's score over Bahdanau et al.'s (2015, eq. 6), term under term
        r"\begin{aligned}r(\mathbf{z}_j, \mathbf{q}) &= \mathbf{w}_2^\top \tanh\!\left("
        r"W_1^q\, \mathbf{q} + W_1^z \mathbf{z}_j + \mathbf{b}_1\right) \\"
        r" e_{ij} &= \mathbf{v}_a^\top \tanh\!\left(W_a \mathbf{s}_{i-1}"
        r" + U_a \mathbf{h}_j\right)\end{aligned}"
    )
    same_as_note = "scoring.same_as_mlp"

    def terms(self, score: nn.Module, h: int, q_i: np.ndarray, K: np.ndarray) -> Terms:
        z_part = K @ to_numpy(score.W_1z[h])  # (N, hidden): row l is (W_1^z k_l)ᵀ
        q_part = q_i @ to_numpy(score.W_1q[h])  # (hidden,): (W_1^q q_i)ᵀ
        b_1, w_2 = to_numpy(score.b_1[h]).reshape(-1), to_numpy(score.w_2[h]).reshape(-1)
        pre = z_part + q_part + b_1  # (N, hidden)
        u = np.tanh(pre)  # (N, hidden): the hidden units
        parts = {"z_part": z_part, "q_part": q_part, "b_1": b_1, "pre": pre}
        return Terms(u * w_2, w_2, u, parts)

    def term_symbol(self, i: int, j: int, h: int) -> str:
        return (
            rf"\sum_u w_{{2,u}} \tanh\!\big(W_1^z \mathbf{{k}}_{{{j}}}"
            rf" + W_1^q \mathbf{{q}}_{{{i}}} + \mathbf{{b}}_1\big)_u"
        )

    def factor_names(self, i: int, j: int) -> tuple[str, str]:
        return "w_2,u", "u_u"


SPEC = MLP()
