"""Multi-head self-attention on a typed sentence (S9–S12), inside one block (S13, S14)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from ..block import TransformerBlock
from ..masks import causal_mask
from ..positional import PositionalEncoding
from ..text import embed, tokenize


@dataclass(frozen=True)
class MultiheadResult:
    tokens: list[str]
    scores: np.ndarray  # (H, N, N) pre-softmax, float32
    weights: np.ndarray  # (H, N, N) softmax rows, float32
    pipeline: pd.DataFrame  # step, formula, shape
    width: int  # model width after positional encoding (D, or D + D when concatenated)
    d_head: int


@torch.inference_mode()
def run(
    text: str,
    D: int,
    H: int,
    d_head: int | None,
    score: str,
    causal: bool,
    pe: str,
    pe_mode: str,
    norm: str,
    seed: int,
) -> MultiheadResult:
    """Embed ``text``, add positions, run one block; return per-head maps and every shape."""
    tokens = tokenize(text)
    X = embed(tokens, D)  # (N, D)
    enc = PositionalEncoding(D, pe, pe_mode, seed=seed)
    X_in = enc(X)  # (N, D) or (N, 2D)
    width = enc.out_dim
    block = TransformerBlock(
        width, H, d_head=d_head, norm=norm, score=score, seed=seed, device="cpu"
    )
    N = len(tokens)
    mask = causal_mask(N) if causal else None
    _, trace = block(X_in, mask=mask)
    a = trace.attn
    dh = block.attn.d_head
    rows = [
        ("X", "x_i = embed(token_i)", (N, D)),
        (
            "X + P" if pe_mode == "add" else "[X; P]",
            "x_i + p_i" if pe_mode == "add" else "[x_i; p_i]",
            (N, width),
        ),
        ("Q_h, K_h, V_h", "X W_h^Q, X W_h^K, X W_h^V", (H, N, dh)),
        ("scores", "Q_h K_hᵀ / √D'", tuple(a.scores.shape[1:])),
        ("weights", "softmax(scores) (row-wise)", tuple(a.weights.shape[1:])),
        ("head_h", "weights · V_h", tuple(a.head_out.shape[1:])),
        ("concat", "[head_1 … head_H]", tuple(a.concat.shape[1:])),
        ("A^M", "concat · W^O", tuple(trace.attn_out.shape[1:])),
        (
            "out",
            f"block output ({norm}-LN)" if norm != "none" else "block output (no LN)",
            tuple(trace.resid_post.shape[1:]),
        ),
    ]
    pipeline = pd.DataFrame(rows, columns=["step", "formula", "shape"])
    pipeline["shape"] = pipeline["shape"].map(lambda s: " × ".join(map(str, s)))
    return MultiheadResult(
        tokens=tokens,
        scores=a.scores[0].float().numpy(),
        weights=a.weights[0].float().numpy(),
        pipeline=pipeline,
        width=width,
        d_head=dh,
    )
