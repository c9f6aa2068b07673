"""Seeded parameter initialisation shared by the engine's modules.

Every draw comes from an explicit ``torch.Generator``, so the same seed gives the same
numbers on every machine.
"""

from __future__ import annotations

import math

import torch
from torch import nn


def uniform(
    *shape: int, fan_in: int, generator: torch.Generator, dtype: torch.dtype
) -> nn.Parameter:
    """U(−1/√fan_in, 1/√fan_in), PyTorch's default for a linear layer's weight and bias."""
    bound = 1 / math.sqrt(fan_in)
    return nn.Parameter((torch.rand(*shape, generator=generator, dtype=dtype) * 2 - 1) * bound)


def normal(*shape: int, std: float, generator: torch.Generator, dtype: torch.dtype) -> nn.Parameter:
    """N(0, std²)."""
    return nn.Parameter(torch.randn(*shape, generator=generator, dtype=dtype) * std)
