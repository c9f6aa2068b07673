"""Hand-written oracles shared by tests: a block's sub-layers written out from its parameters."""

import math

import torch
from torch.nn import functional as F

import attnviz


def multi_head_attention(attn, x: torch.Tensor) -> torch.Tensor:
    """S12, head by head: Σ_h softmax(Q_h K_hᵀ / √D′) V_h W_h^O + b_O, Q_h = X W_h^Q + b_h^Q.

    ``attn`` is an ``attnviz.MultiHeadAttention`` with the scaled-dot score; x is (N, D).
    """
    out = torch.zeros_like(x) if attn.b_O is None else attn.b_O.expand_as(x).clone()
    for h in range(attn.H):
        q, k, v = (
            x @ W[h] + (0 if b is None else b[h])
            for W, b in ((attn.W_Q, attn.b_Q), (attn.W_K, attn.b_K), (attn.W_V, attn.b_V))
        )  # (N, D′) each
        a = torch.softmax(q @ k.T / math.sqrt(attn.d_head), -1)  # (N, N)
        out = out + a @ v @ attn.W_O[h]  # (N, D′) @ (D′, D)
    return out


def layer_norm(x: torch.Tensor, ln) -> torch.Tensor:
    """PyTorch's own layer_norm with the γ, β, ε of an ``attnviz`` LayerNorm ``ln``."""
    return F.layer_norm(x, x.shape[-1:], ln.gamma, ln.beta, ln.eps)


def ffn(f, x: torch.Tensor, act=torch.relu) -> tuple[torch.Tensor, torch.Tensor]:
    """S13: (act(x W_1 + b_1) W_2 + b_2, act(x W_1 + b_1)) from a FeedForward's parameters."""
    hidden = act(x @ f.W_1 + f.b_1)
    return hidden @ f.W_2 + f.b_2, hidden


def gelu(x: torch.Tensor) -> torch.Tensor:
    """GELU(x) = x Φ(x) = ½ x (1 + erf(x / √2))."""
    return 0.5 * x * (1 + torch.erf(x / math.sqrt(2)))


def with_random_biases(mha: attnviz.MultiHeadAttention, seed: int = 1) -> None:
    """Every bias starts at 0; make them non-zero so a missing + b cannot pass."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name in ("b_Q", "b_K", "b_V", "b_O"):
            p = getattr(mha, name)
            p.copy_(torch.randn(p.shape, generator=g) * 0.5)
        if mha.score_name == "mlp":
            mha.score.b_1.copy_(torch.randn(mha.score.b_1.shape, generator=g) * 0.5)


def nontrivial_(block, seed: int = 0):
    """Give a block's zero-started biases and its γ, β random values, so a sub-layer that
    skips one of them, or reads the wrong input, shows. Returns the block."""
    with_random_biases(block.attn, seed)
    g = torch.Generator().manual_seed(seed + 1)
    with torch.no_grad():
        for p in (block.ln_1.beta, block.ln_2.beta):
            p.copy_(torch.randn(p.shape, generator=g, dtype=p.dtype) * 0.5)
        for p in (block.ln_1.gamma, block.ln_2.gamma):
            p.copy_(torch.rand(p.shape, generator=g, dtype=p.dtype) + 0.5)
    return block
