"""The training race's model (S14): embedding, learned positions, a ``TransformerStack``
and a linear read-out, h_0 = E[x] + W_pos, h_L = Stack_L(h_0), logits = h_L W_out.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import torch
from torch import nn

from ...device import resolve_device
from ...errors import Diverged, NonFinite
from ...norms import placement
from ...positional import PositionalEncoding
from ...stack import TransformerStack

if TYPE_CHECKING:
    from .config import Config

NORMS = ("post", "pre")  # where each block's LayerNorm sits: the two models of a race


class SeqModel(nn.Module):
    """Embedding + learned positions + ``TransformerStack`` + linear read-out.

    Parameters are drawn on the CPU from the seed, then moved to ``device``.
    """

    def __init__(self, cfg: Config, norm: str, device: str | torch.device = "auto") -> None:
        super().__init__()
        device = resolve_device(device, many_small_kernels=True)
        g = torch.Generator().manual_seed(cfg.seed)
        self.E = nn.Parameter(torch.randn(cfg.vocab, cfg.D, generator=g))  # (V, D)
        self.pe = PositionalEncoding(cfg.D, "learned", "add", n_max=cfg.n, seed=cfg.seed + 1)
        self.stack = TransformerStack(
            cfg.L,
            cfg.D,
            cfg.H,
            4 * cfg.D,
            norm=norm,
            final_norm=placement(norm).final_ln,
            seed=cfg.seed + 2,
            device=device,
        )
        self.W_out = nn.Parameter(torch.randn(cfg.D, cfg.vocab, generator=g) / math.sqrt(cfg.D))
        self.to(device)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Logits of a batch x (B, n): (B, n, V). Raises ``Diverged`` where the engine finds
        non-finite activations (it checks them on the CPU; on a GPU the loss shows them)."""
        h, _ = self._run(x)  # (B, n, D)
        return h @ self.W_out  # (B, n, V)

    @torch.no_grad()
    def weights(self, x: torch.Tensor) -> np.ndarray:
        """Every layer's and head's attention weights on one sequence x (n,), float32.

        Shape:
            x (n,) -> (L, H, n, n) on the CPU, [layer, head, query_pos, key_pos]
        """
        _, traces = self._run(x[None])  # x[None]: (1, n)
        return torch.stack([t.attn.weights[0] for t in traces]).float().cpu().numpy()

    def _run(self, x: torch.Tensor):
        """The stack on token ids x (B, n): (h_L, traces). The engine's rejection of
        non-finite activations is this model's divergence (its parameters, not a student's
        input, made them)."""
        try:
            return self.stack(self.pe(self.E[x]))
        except NonFinite as err:
            raise Diverged(str(err)) from err
