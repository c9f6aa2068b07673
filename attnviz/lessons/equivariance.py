"""Permutation equivariance (S7, S15, S16): f(PX) = P f(X) holds without positions only.

f is one Transformer block after a positional encoding: f(X) = Block(PE(X)).
The block's attention weights obey A(PX) = P A(X) Pᵀ and its position-wise parts
(FFN, LayerNorm, residuals) commute with P, so without PE the error
max |f(PX) − P f(X)| is float32 rounding (≈ 1e-7). PE ties p_i to the slot i, not
to the token, so PE(PX) ≠ P PE(X) and the equality breaks.

A permutation is an index array ``perm``: (PX)_i = X_{perm[i]}, P = I[perm].
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from ..block import TransformerBlock
from ..limits import MAX_SEED, check_choice, check_int
from ..positional import PositionalEncoding
from ..text import embed, tokenize

PERMUTATIONS = ("reverse", "shuffle", "swap", "typed")
MAX_TOKENS = 48  # tokens shown on this page (N × N maps and an N × D difference map)


def permutation(
    kind: str, N: int, *, seed: int = 0, i: int = 0, j: int = 1, typed: str = ""
) -> np.ndarray:
    """Indices ``perm`` of P: reverse, a seeded shuffle, swap i ↔ j, or a typed order "2,0,1".

    Raises ValueError when a typed order is not a permutation of 0 … N−1.
    """
    kind = check_choice("permutation", kind, PERMUTATIONS)
    N = check_int("N", N, 1, MAX_TOKENS)
    if kind == "reverse":
        return np.arange(N)[::-1].copy()
    if kind == "shuffle":
        g = torch.Generator().manual_seed(check_int("seed", seed, 0, MAX_SEED))
        return torch.randperm(N, generator=g).numpy()
    if kind == "swap":
        perm = np.arange(N)
        i, j = check_int("i", i, 0, N - 1), check_int("j", j, 0, N - 1)
        perm[[i, j]] = perm[[j, i]]
        return perm
    try:
        perm = np.array([int(part) for part in typed.replace(" ", "").split(",") if part])
    except ValueError:
        raise ValueError(f"order must list 0 … {N - 1} separated by commas") from None
    if sorted(perm.tolist()) != list(range(N)):
        raise ValueError(f"order must list each of 0 … {N - 1} exactly once")
    return perm


@dataclass(frozen=True)
class EquivarianceResult:
    tokens: list[str]
    perm: np.ndarray  # (N,) (PX)_i = X_{perm[i]}
    A: np.ndarray  # (H, N, N) weights for X
    A_P: np.ndarray  # (H, N, N) weights for PX
    PAPt: np.ndarray  # (H, N, N) P A Pᵀ: A with rows and columns permuted
    out: np.ndarray  # (N, W) f(X), W = D or 2D (concatenated PE)
    diff: np.ndarray  # (N, W) f(PX) − P f(X)
    error: float  # max |f(PX) − P f(X)|
    attn_error: float  # max |A(PX) − P A(X) Pᵀ|


def tokens_of(text: str) -> tuple[list[str], bool]:
    """The first MAX_TOKENS tokens of ``text``, and whether any were cut."""
    tokens = tokenize(text)
    return tokens[:MAX_TOKENS], len(tokens) > MAX_TOKENS


@torch.inference_mode()
def run(
    text: str, perm: tuple[int, ...], D: int, H: int, pe: str, pe_mode: str, norm: str, seed: int
) -> EquivarianceResult:
    """f(X) and f(PX) for one block with positional encoding ``pe``; the equivariance error.

    Shape:
        X (N, D) -> f(X) (N, W) with W = D (added or no PE) or 2D (concatenated)
    """
    tokens, _ = tokens_of(text)
    N = len(tokens)
    p = np.asarray(perm, dtype=np.int64)
    if sorted(p.tolist()) != list(range(N)):
        raise ValueError(f"permutation must reorder 0 … {N - 1}, got {len(p)} indices")
    X = embed(tokens, D)  # (N, D)
    PX = X[torch.from_numpy(p)]  # (N, D) rows permuted
    enc = PositionalEncoding(D, pe, pe_mode, seed=seed)
    block = TransformerBlock(enc.out_dim, H, norm=norm, seed=seed, device="cpu")
    out, trace = block(enc(X))  # (N, W)
    out_P, trace_P = block(enc(PX))  # (N, W)
    A = trace.attn.weights[0].numpy()  # (H, N, N)
    A_P = trace_P.attn.weights[0].numpy()  # (H, N, N)
    PAPt = A[:, p][:, :, p]  # (P A Pᵀ)_{ij} = A_{perm[i], perm[j]}
    diff = (out_P - out[torch.from_numpy(p)]).numpy()  # (N, W)
    return EquivarianceResult(
        tokens=tokens,
        perm=p,
        A=A,
        A_P=A_P,
        PAPt=PAPt,
        out=out.numpy(),
        diff=diff,
        error=float(np.abs(diff).max()),
        attn_error=float(np.abs(A_P - PAPt).max()),
    )
