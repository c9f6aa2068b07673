"""Reading a real model's attention: combine heads, hide special tokens, roll out layers.

Attention rollout (Abnar & Zuidema 2020) follows attention through the residual stream:

    Ã_l = rownorm( mean_h A_l,h + I )          (N, N), each row sums to 1
    R_1 = Ã_1,   R_l = Ã_l R_{l-1}             how much token j feeds token i after l layers

Adding I accounts for the residual connection around attention; rows of R_l still sum to 1.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

SPECIAL = ("[CLS]", "[SEP]")
COMBINE = ("mean", "max")


def combine_heads(weights: np.ndarray, how: str = "mean") -> np.ndarray:
    """Heads (k, N, N) → one map (N, N): their mean (rows still sum to 1) or elementwise max."""
    if how not in COMBINE:
        raise ValueError(f"how must be one of {', '.join(COMBINE)}; got {how!r}")
    weights = np.asarray(weights, dtype=np.float32)
    if weights.ndim != 3 or weights.shape[0] == 0:
        raise ValueError(f"weights must have shape (k, N, N) with k ≥ 1, got {weights.shape}")
    return weights.mean(0) if how == "mean" else weights.max(0)


def keep_positions(tokens: list[str], hide_special: bool) -> np.ndarray:
    """Indices of the tokens to show: all, or all but [CLS] and [SEP] (never none)."""
    keep = [i for i, tok in enumerate(tokens) if not (hide_special and tok in SPECIAL)]
    return np.asarray(keep or range(len(tokens)), dtype=np.int64)


def rollout(attentions: np.ndarray) -> np.ndarray:
    """Attention rollout after each layer: (L, H, N, N) → (L, N, N), rows sum to 1."""
    attentions = np.asarray(attentions, dtype=np.float64)
    if attentions.ndim != 4 or attentions.shape[-1] != attentions.shape[-2]:
        raise ValueError(f"attentions must have shape (L, H, N, N), got {attentions.shape}")
    L, _, N, _ = attentions.shape
    out = np.empty((L, N, N))
    R = np.eye(N)
    for layer in range(L):
        A = attentions[layer].mean(0) + np.eye(N)  # (N, N): heads averaged, residual added
        A /= A.sum(-1, keepdims=True)  # rows renormalised
        R = A @ R  # (N, N)
        out[layer] = R
    return out.astype(np.float32)


def labels(tokens: list[str]) -> list[str]:
    """Numbered token labels ``i:token`` (WordPiece repeats words, so numbers keep them apart)."""
    return [f"{i}:{tok}" for i, tok in enumerate(tokens)]


def long_table(attentions: np.ndarray, tokens: list[str]) -> pd.DataFrame:
    """Every layer and head's weights as rows layer, head, query, key, weight (for CSV)."""
    L, H, N, _ = attentions.shape
    lab = np.asarray(labels(tokens), dtype=object)
    return pd.DataFrame(
        {
            "layer": np.repeat(np.arange(L), H * N * N),
            "head": np.tile(np.repeat(np.arange(H), N * N), L),
            "query": np.tile(np.repeat(lab, N), L * H),
            "key": np.tile(lab, L * H * N),
            "weight": attentions.reshape(-1),
        }
    )
