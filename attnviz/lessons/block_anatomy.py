"""One block's anatomy (S13, S14): the residual stream step by step, and what LN does per token.

LN(x) = γ ⊙ (x − μ) / √(σ² + ε) + β with μ, σ² taken over the D features of one token,
so after normalisation (before γ, β) every token has mean 0 and variance ≈ 1; γ, β ∈ ℝ^D
are shared by all tokens.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from ..block import TransformerBlock
from ..text import embed, tokenize

# Steps of the stream, in the order the data flows, per norm: (trace field, label).
STEPS = {
    "post": [
        ("resid_pre", "X"),
        ("attn_out", "MHA(X)"),
        ("sum_1", "X + MHA(X)"),
        ("resid_mid", "Q' = LN₁(·)"),
        ("ffn_hidden", "ReLU(Q'W₁+b₁)"),
        ("ffn_out", "FFN(Q')"),
        ("sum_2", "Q'+FFN(Q')"),
        ("resid_post", "out = LN₂(·)"),
    ],
    "pre": [
        ("resid_pre", "x"),
        ("attn_in", "LN₁(x)"),
        ("attn_out", "MHA(LN₁(x))"),
        ("resid_mid", "h = x + MHA"),
        ("ffn_in", "LN₂(h)"),
        ("ffn_hidden", "ReLU(·W₁+b₁)"),
        ("ffn_out", "FFN(LN₂(h))"),
        ("resid_post", "out = h + FFN"),
    ],
    "none": [
        ("resid_pre", "x"),
        ("attn_out", "MHA(x)"),
        ("resid_mid", "h = x + MHA"),
        ("ffn_hidden", "ReLU(hW₁+b₁)"),
        ("ffn_out", "FFN(h)"),
        ("resid_post", "out = h + FFN"),
    ],
}


@dataclass(frozen=True)
class Anatomy:
    tokens: list[str]
    steps: list[str]  # labels, in flow order
    shapes: list[str]  # "N × D" per step
    norms: np.ndarray  # (steps, N) ‖·‖₂ of each token after each step
    ln_in: np.ndarray | None  # (N, D) what LN₁ normalises (None for norm="none")
    ln_hat: np.ndarray | None  # (N, D) LN₁ before γ, β
    stats: pd.DataFrame  # token, mean/var before and after LN₁ (empty for norm="none")


@torch.inference_mode()
def run(text: str, norm: str, D: int, H: int, d_ff: int, seed: int) -> Anatomy:
    """Embed ``text`` (N(0, 1) word vectors), run one block, collect every step."""
    tokens = tokenize(text)
    X = embed(tokens, D)  # (N, D)
    block = TransformerBlock(D, H, d_ff, norm=norm, seed=seed, device="cpu")
    _, trace = block(X)
    steps, shapes, norms = [], [], []
    for field, label in STEPS[block.norm]:
        value = getattr(trace, field)[0]  # (N, D) or (N, D_ff)
        steps.append(label)
        shapes.append(" × ".join(map(str, value.shape)))
        norms.append(value.norm(dim=-1).float().numpy())
    ln_in = ln_hat = None
    stats = pd.DataFrame()
    if trace.ln_1_hat is not None:
        ln_in = (trace.sum_1 if norm == "post" else trace.resid_pre)[0].float().numpy()
        ln_hat = trace.ln_1_hat[0].float().numpy()
        stats = pd.DataFrame(
            {
                "token": [f"{i}:{t}" for i, t in enumerate(tokens)],
                "mean_before": ln_in.mean(-1),
                "var_before": ln_in.var(-1),
                "mean_after": ln_hat.mean(-1),
                "var_after": ln_hat.var(-1),
            }
        )
    return Anatomy(tokens, steps, shapes, np.stack(norms), ln_in, ln_hat, stats)
