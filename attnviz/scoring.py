"""Score functions r(z, q): how much a query q is interested in a source z.

Every score maps sources ``z`` of shape (..., N, D) and queries ``q`` of shape
(..., M, D) to scores of shape (..., M, N); a softmax over the last axis turns
them into attention weights. With ``heads=H`` a score carries one set of
parameters per head and expects inputs (..., H, N, D).

The registry ``SCORES`` chooses a score by name; see ``make_score``.
"""

from __future__ import annotations

import math

import torch
from torch import nn

from .limits import MAX_D, MAX_H, MAX_MLP_HIDDEN, MAX_N, check_choice, check_int
from .params import normal


class DotScore(nn.Module):
    """Unscaled dot product, the contrast case of S2: r(z, q) = zᵀq.

    It has no parameters; it takes ``heads``, ``generator`` and ``dtype`` like every score,
    so ``make_score`` builds all of them the same way.
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


class ScaledDotScore(DotScore):
    """S2: r(z, q) = zᵀq / √D (D is the width of z and q: the per-head D' inside MHA)."""

    scale_by_sqrt_d = True


class BilinearScore(nn.Module):
    """S4: r(z, q) = zᵀ W q / √D with a learnable W ∈ ℝ^{D×D}."""

    def __init__(
        self,
        d: int,
        heads: int | None = None,
        *,
        generator: torch.Generator,
        dtype: torch.dtype = torch.float32,
    ) -> None:
        super().__init__()
        self.d = d
        hdim = () if heads is None else (heads,)
        self.W = normal(*hdim, d, d, std=1 / math.sqrt(d), generator=generator, dtype=dtype)

    def forward(self, z: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
        Wq = q @ self.W.transpose(-1, -2)  # (..., M, D): row m is (W q_m)ᵀ
        return Wq @ z.transpose(-1, -2) / math.sqrt(self.d)  # (..., M, N)


class MLPScore(nn.Module):
    """S5: r(z, q) = MLP([z; q]) = w_2ᵀ tanh(W_1 [z; q] + b_1), additive attention generalised.

    W_1 is split into the blocks acting on z and on q, so the (M, N) grid of
    concatenations is never materialised: W_1 [z; q] = W_1^z z + W_1^q q.
    """

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
        hidden = torch.tanh(qh.unsqueeze(-2) + zh.unsqueeze(-3) + self.b_1)  # (..., M, N, hidden)
        return (hidden * self.w_2).sum(-1)  # (..., M, N)


class QueryOnlyScore(nn.Module):
    """S6: weights from the query alone, a = softmax(W q); the sources z are never read.

    W ∈ ℝ^{N_max×D} has one row per source position; N sources use its first N rows.
    """

    def __init__(
        self,
        d: int,
        heads: int | None = None,
        *,
        generator: torch.Generator,
        dtype: torch.dtype = torch.float32,
        n_max: int = MAX_N,
    ) -> None:
        super().__init__()
        n_max = check_int("n_max", n_max, 1, MAX_N)
        hdim = () if heads is None else (heads,)
        self.W = normal(*hdim, n_max, d, std=1 / math.sqrt(d), generator=generator, dtype=dtype)

    def forward(self, z: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
        n = z.shape[-2]
        if n > self.W.shape[-2]:
            raise ValueError(f"query_only: N must be in [1, {self.W.shape[-2]}], got N={n}")
        return q @ self.W[..., :n, :].transpose(-1, -2)  # (..., M, D) @ (..., D, N) -> (..., M, N)


SCORES: dict[str, type[nn.Module]] = {
    "dot": DotScore,
    "scaled_dot": ScaledDotScore,
    "bilinear": BilinearScore,
    "mlp": MLPScore,
    "query_only": QueryOnlyScore,
}


def make_score(
    name: str,
    d: int,
    *,
    heads: int | None = None,
    seed: int = 0,
    generator: torch.Generator | None = None,
    dtype: torch.dtype = torch.float32,
    hidden: int = 16,
    n_max: int = MAX_N,
) -> nn.Module:
    """Build the score called ``name`` for width ``d``.

    ``hidden`` is the MLP score's hidden width, ``n_max`` the number of source positions
    of the query_only score; the other scores ignore both. Parameters are drawn from
    ``generator``, or from a fresh one seeded with ``seed``.
    """
    check_choice("score", name, SCORES)
    check_int("D", d, 1, MAX_D)
    if heads is not None:
        check_int("H", heads, 1, MAX_H)
    if generator is None:
        generator = torch.Generator().manual_seed(seed)
    if name == "mlp":
        return MLPScore(d, heads, generator=generator, dtype=dtype, hidden=hidden)
    if name == "query_only":
        return QueryOnlyScore(d, heads, generator=generator, dtype=dtype, n_max=n_max)
    return SCORES[name](d, heads, generator=generator, dtype=dtype)
