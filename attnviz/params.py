"""Seeded parameter initialisation shared by the engine's modules.

Every draw comes from an explicit CPU ``torch.Generator``, so the same seed gives the
same numbers on every machine; a finished module then moves to its device.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import nn

from .device import resolve_device, resolve_dtype


def uniform(
    *shape: int, fan_in: int, generator: torch.Generator, dtype: torch.dtype
) -> nn.Parameter:
    """U(−1/√fan_in, 1/√fan_in), PyTorch's default for a linear layer's weight and bias."""
    bound = 1 / math.sqrt(fan_in)
    u = torch.rand(*shape, generator=generator, dtype=dtype)  # in place: one tensor, not three
    return nn.Parameter(u.mul_(2).sub_(1).mul_(bound))


def normal(*shape: int, std: float, generator: torch.Generator, dtype: torch.dtype) -> nn.Parameter:
    """N(0, std²)."""
    return nn.Parameter(torch.randn(*shape, generator=generator, dtype=dtype).mul_(std))


@dataclass(frozen=True)
class Init:
    """Where a module's parameters come from: a seed, their dtype, and the device they end on.

    A module draws its parameters from ``generator()`` in a fixed order, so the order of
    its constructor's lines fixes which number goes where.
    """

    seed: int
    dtype: torch.dtype
    device: torch.device

    @classmethod
    def of(cls, seed: int, dtype: str | torch.dtype, device: str | torch.device) -> Init:
        """Resolve a constructor's ``seed=, dtype=, device=`` arguments (names or objects)."""
        return cls(seed, resolve_dtype(dtype), resolve_device(device))

    def generator(self, offset: int = 0) -> torch.Generator:
        """A fresh CPU generator seeded with ``seed + offset``."""
        return torch.Generator().manual_seed(self.seed + offset)

    def uniform(self, g: torch.Generator, *shape: int, fan_in: int) -> nn.Parameter:
        """U(−1/√fan_in, 1/√fan_in) drawn from ``g``."""
        return uniform(*shape, fan_in=fan_in, generator=g, dtype=self.dtype)

    def zeros(self, *shape: int) -> nn.Parameter:
        """A bias that starts at 0."""
        return nn.Parameter(torch.zeros(*shape, dtype=self.dtype))
