"""What one multi-head attention call computed, per head.

What source j sends to query i through head h is a vector, not the weight alone
(Kobayashi et al. 2020, "Attention is Not Only a Weight: Analyzing Transformers with Vector
Norms", EMNLP):

    out_i = Σ_h Σ_j a_ij^h f_h(x_j) + b^O,   f_h(x_j) = (x_j W_h^V + b_h^V) W_h^O   (D,)

W_h^O being the rows of W^O that head h's output meets. The trace's ``norms`` are the lengths
‖a_ij^h f_h(x_j)‖ = a_ij^h ‖f_h(x_j)‖: a head may put most of its weight on a source whose
f_h(x_j) is short, and so send little from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import torch


@dataclass(frozen=True)
class AttentionTrace:
    """Named intermediates of one multi-head attention call, per head, never averaged."""

    q: torch.Tensor  # [batch, head, query_pos, d_head]   Q W_h^Q
    k: torch.Tensor  # [batch, head, key_pos, d_head]     K W_h^K
    v: torch.Tensor  # [batch, head, key_pos, d_head]     V W_h^V
    scores: torch.Tensor  # [batch, head, query_pos, key_pos]  before mask and softmax
    weights: torch.Tensor  # [batch, head, query_pos, key_pos]  softmax rows
    head_out: torch.Tensor  # [batch, head, query_pos, d_head]  head_h
    concat: torch.Tensor  # [batch, query_pos, head * d_head]  [head_1 .. head_H]
    W_O: torch.Tensor  # [head, d_head, D]  W_h^O, the rows of W^O that head h's output meets

    @cached_property
    def sent(self) -> torch.Tensor:
        """f_h(x_j) = v_j W_h^O = (x_j W_h^V + b_h^V) W_h^O, what key j sends through head h
        per unit of weight, without b^O: [batch, head, key_pos, D]. Computed on first read
        (no autograd), so that a forward pass that never reads it pays nothing."""
        with torch.no_grad():
            return torch.einsum("bhne,hed->bhnd", self.v, self.W_O)  # (B, H, N_k, D)

    @cached_property
    def sent_norms(self) -> torch.Tensor:
        """‖f_h(x_j)‖: [batch, head, key_pos]."""
        with torch.no_grad():
            return torch.linalg.vector_norm(self.sent, dim=-1)  # (B, H, N_k)

    @cached_property
    def norms(self) -> torch.Tensor:
        """‖a_ij f_h(x_j)‖ = a_ij ‖f_h(x_j)‖ (a_ij ≥ 0; Kobayashi et al. 2020):
        [batch, head, query_pos, key_pos]. 0 wherever the weight is 0 (masked keys, rows
        with no allowed key); rows do not sum to 1."""
        with torch.no_grad():
            return self.weights.detach() * self.sent_norms[:, :, None, :]  # (B, H, N_q, N_k)
