"""Positional encodings (S15, S16): the sinusoidal table, similarity between positions, and
the same word at two positions with and without p_i.

P[i, 2k] = sin(i / 10000^{2k/D}),  P[i, 2k+1] = cos(i / 10000^{2k/D});
similarity S[i, j] = p_iᵀ p_j.  Without p_i a repeated word has identical attention rows (S7).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from ..attention import MultiHeadAttention
from ..positional import PositionalEncoding
from ..text import embed, tokenize


def table(kind: str, N: int, D: int, seed: int) -> np.ndarray:
    """The (N, D) matrix of p_1 … p_N for ``kind`` (sinusoidal, or learned at initialisation)."""
    with torch.no_grad():
        return PositionalEncoding(D, kind, seed=seed).table(N).float().numpy().copy()


def similarity(P: np.ndarray, cosine: bool = False) -> np.ndarray:
    """S = P Pᵀ (N, N); with ``cosine`` each row of P is first scaled to unit length."""
    P = np.asarray(P, dtype=np.float64)
    if cosine:
        P = P / np.maximum(np.linalg.norm(P, axis=1, keepdims=True), 1e-12)
    return (P @ P.T).astype(np.float32)


def widths(D: int, d_pos: int) -> dict[str, int]:
    """Model width after encoding: added keeps D, concatenated gives D + d_pos."""
    return {
        mode: PositionalEncoding(D, "sinusoidal", mode, d_pos=d_pos, n_max=1).out_dim
        for mode in ("add", "concat")
    }


@dataclass(frozen=True)
class TwoPositions:
    tokens: list[str]
    i: int  # first position of the repeated word
    j: int  # second position
    rows: dict[str, np.ndarray]  # {"none" | "sinusoidal": (2, N) attention rows of i and j}


def repeated(tokens: list[str]) -> tuple[int, int] | None:
    """Positions of the first word that occurs twice, or None."""
    seen: dict[str, int] = {}
    for k, tok in enumerate(tokens):
        if tok in seen:
            return seen[tok], k
        seen[tok] = k
    return None


@torch.inference_mode()
def same_word(text: str, D: int, seed: int, mode: str = "add") -> TwoPositions | None:
    """One attention head over ``text`` with no PE and with sinusoidal PE (``mode``): the
    weight rows of the two occurrences of its first repeated word (None if no word repeats)."""
    tokens = tokenize(text)
    pair = repeated(tokens)
    if pair is None:
        return None
    X = embed(tokens, D)  # (N, D)
    rows = {}
    for kind in ("none", "sinusoidal"):
        enc = PositionalEncoding(D, kind, mode)
        mha = MultiHeadAttention(enc.out_dim, 1, seed=seed, device="cpu")
        _, trace = mha(enc(X))
        rows[kind] = trace.weights[0, 0, list(pair)].float().numpy()  # (2, N)
    return TwoPositions(tokens, pair[0], pair[1], rows)
