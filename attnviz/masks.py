"""Attention masks. One convention everywhere: ``True`` means *may attend*.

PyTorch's ``nn.MultiheadAttention`` uses the opposite (``True`` = may NOT attend): a
mask handed to it is ``~mask`` (``tests/test_interop.py`` checks that conversion).
"""

from __future__ import annotations

import torch


def causal_mask(
    n_q: int, n_k: int | None = None, device: torch.device | None = None
) -> torch.Tensor:
    """(N_q, N_k) lower-triangular mask: query i may attend to keys j ≤ i."""
    n_k = n_q if n_k is None else n_k
    return torch.ones(n_q, n_k, dtype=torch.bool, device=device).tril()


def padding_mask(lengths: torch.Tensor | list[int], n_k: int) -> torch.Tensor:
    """(B, 1, 1, N_k) mask: key j of sequence b may be attended to iff j < lengths[b]."""
    lengths = torch.as_tensor(lengths)
    keep = torch.arange(n_k, device=lengths.device) < lengths[:, None]  # (B, N_k)
    return keep[:, None, None, :]
