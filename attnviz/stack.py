"""A stack of L Transformer blocks (S13, S14), each seeded apart, with the LayerNorm that
pre-LN models put after the last one.

x_l = block_l(x_{l-1}), l = 1 … L;  out = LN(x_L) with ``final_norm``, else x_L.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

from .block import BlockTrace, LayerNorm, TransformerBlock
from .limits import check_size
from .params import Init

SEED_STRIDE = 1000  # block i (0-based) of a stack seeded with s is seeded with s + SEED_STRIDE·i


class TransformerStack(nn.Module):
    """L blocks in sequence, block i (from 0) seeded with ``seed + SEED_STRIDE·i``; a trace each.

    ``block`` holds ``TransformerBlock``'s other keyword arguments (norm, activation, d_head,
    score, bias, …), the same for every block. ``final_norm`` adds the LayerNorm that pre-LN
    models put after the last block.
    """

    def __init__(
        self,
        L: int,
        D: int,
        H: int,
        d_ff: int | None = None,
        *,
        final_norm: bool = False,
        eps: float = 1e-5,
        seed: int = 0,
        dtype: str | torch.dtype = torch.float32,
        device: str | torch.device = "auto",
        **block: Any,
    ) -> None:
        super().__init__()
        L = check_size("layers", L)
        init = Init.of(seed, dtype, device)
        self.blocks = nn.ModuleList(
            TransformerBlock(
                D,
                H,
                d_ff,
                eps=eps,
                seed=init.seed + SEED_STRIDE * i,
                dtype=init.dtype,
                device=init.device,
                **block,
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
