"""Attention (S8, S9, S11): weights from scores by a softmax over the sources, and the
weighted sum of their values."""

from __future__ import annotations

import math

import torch


def attend(
    scores: torch.Tensor, values: torch.Tensor, mask: torch.Tensor | None = None
) -> tuple[torch.Tensor, torch.Tensor]:
    """S8/S9/S11: weights a = softmax(scores) row by row, output = a V.

    ``mask`` (True = may attend) broadcasts to ``scores``; blocked entries get
    weight exactly 0. A query row with no allowed key gets all-zero weights.

    Shape:
        scores (..., M, N), values (..., N, D_v) -> output (..., M, D_v), weights (..., M, N)
    """
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)  # each row sums to 1 (S9)
    if mask is not None:
        weights = weights.masked_fill(~mask.any(dim=-1, keepdim=True), 0.0)
    return weights @ values, weights


def scaled_dot_product_attention(
    query: torch.Tensor, key: torch.Tensor, value: torch.Tensor, mask: torch.Tensor | None = None
) -> tuple[torch.Tensor, torch.Tensor]:
    """S11: A_D(Q, K, V) = softmax(Q Kᵀ / √D) V, returning (output, weights)."""
    scores = query @ key.transpose(-1, -2) / math.sqrt(query.shape[-1])  # (..., M, N)
    return attend(scores, value, mask)
