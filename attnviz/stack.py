"""A stack of L Transformer blocks (S13, S14), each seeded apart, with the LayerNorm that
pre-LN models put after the last one.

x_l = block_l(x_{l-1}), l = 1 … L;  out = LN(x_L) with ``final_norm``, else x_L.
"""

from __future__ import annotations

import torch
from torch import nn

from .block import BlockTrace, LayerNorm, TransformerBlock
from .limits import MAX_LAYERS, MAX_N, check_int
from .params import Init

SEED_STRIDE = 1000  # block i (0-based) of a stack seeded with s is seeded with s + SEED_STRIDE·i


class TransformerStack(nn.Module):
    """L blocks in sequence, block i (from 0) seeded with ``seed + SEED_STRIDE·i``; a trace each.

    The other arguments are ``TransformerBlock``'s, the same for every block. ``final_norm``
    adds the LayerNorm that pre-LN models put after the last block.
    """

    def __init__(
        self,
        L: int,
        D: int,
        H: int,
        d_ff: int | None = None,
        *,
        norm: str = "post",
        final_norm: bool = False,
        activation: str = "relu",
        d_head: int | None = None,
        score: str = "scaled_dot",
        eps: float = 1e-5,
        bias: bool = True,
        mlp_hidden: int = 16,
        n_max: int = MAX_N,
        seed: int = 0,
        dtype: str | torch.dtype = torch.float32,
        device: str | torch.device = "auto",
    ) -> None:
        super().__init__()
        L = check_int("layers", L, 1, MAX_LAYERS)
        init = Init.of(seed, dtype, device)
        self.blocks = nn.ModuleList(
            TransformerBlock(
                D,
                H,
                d_ff,
                norm=norm,
                activation=activation,
                d_head=d_head,
                score=score,
                eps=eps,
                bias=bias,
                mlp_hidden=mlp_hidden,
                n_max=n_max,
                seed=init.seed + SEED_STRIDE * i,
                dtype=init.dtype,
                device=init.device,
            )
            for i in range(L)
        )
        self.final_ln = LayerNorm(D, eps, init.dtype) if final_norm else None
        self.to(init.device)

    def forward(
        self, x: torch.Tensor, mask: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, list[BlockTrace]]:
        traces = []
        for block in self.blocks:
            x, trace = block(x, mask)
            traces.append(trace)
        if self.final_ln is not None:
            x = self.final_ln(x)
        return x, traces
