"""Transformer blocks: post-LN (S13), pre-LN (S14) and, as a contrast, no LN (``norms``),
with FFN(x) = act(x W_1 + b_1) W_2 + b_2, act = ReLU (the seed), GELU (BERT-family models:
the exact x Φ(x)) or ``gelu_tanh`` (GPT-2: Φ approximated by ½(1 + tanh(√(2/π)(x + 0.044715x³)))).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn
from torch.nn import functional as F

from .attention import MultiHeadAttention
from .limits import MAX_N, check_choice, check_float, check_size
from .norms import NORMS
from .params import Init
from .trace import AttentionTrace

ACTIVATIONS = {
    "relu": F.relu,
    "gelu": F.gelu,
    "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),
}


class LayerNorm(nn.Module):
    """Per-token LN(x) = γ ⊙ (x − μ) / √(σ² + ε) + β; γ, β ∈ ℝ^D shared by all tokens (S13)."""

    def __init__(self, D: int, eps: float = 1e-5, dtype: torch.dtype = torch.float32) -> None:
        super().__init__()
        self.eps = check_float("eps", eps, 0.0, 1.0)
        self.gamma = nn.Parameter(torch.ones(D, dtype=dtype))
        self.beta = nn.Parameter(torch.zeros(D, dtype=dtype))

    def normalise(self, x: torch.Tensor) -> torch.Tensor:
        """(x − μ) / √(σ² + ε) per token, before γ and β: mean 0, variance ≈ 1 per row."""
        mu = x.mean(-1, keepdim=True)
        var = x.var(-1, unbiased=False, keepdim=True)
        return (x - mu) / torch.sqrt(var + self.eps)

    def traced(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(LN(x), x̂): the output and the normalised input it is made from, x̂ before γ and β."""
        x_hat = self.normalise(x)
        return self.gamma * x_hat + self.beta, x_hat

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.traced(x)[0]


class FeedForward(nn.Module):
    """Position-wise FFN(x) = act(x W_1 + b_1) W_2 + b_2, D → D_ff → D (S13)."""

    def __init__(self, D: int, d_ff: int, activation: str, init: Init, g: torch.Generator) -> None:
        super().__init__()
        self.act = ACTIVATIONS[activation]
        self.W_1, self.b_1 = init.uniform(g, D, d_ff, fan_in=D), init.uniform(g, d_ff, fan_in=D)
        self.W_2, self.b_2 = init.uniform(g, d_ff, D, fan_in=d_ff), init.uniform(g, D, fan_in=d_ff)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        hidden = self.act(x @ self.W_1 + self.b_1)  # (B, N, D_ff)
        return hidden @ self.W_2 + self.b_2, hidden  # (B, N, D), (B, N, D_ff)


@dataclass(frozen=True)
class BlockTrace:
    """Named intermediates of one block; every tensor is [batch, pos, ·]."""

    attn: AttentionTrace
    resid_pre: torch.Tensor  # X, the block's input
    attn_in: torch.Tensor  # what attention reads: X (post, none) or LN_1(X) (pre)
    attn_out: torch.Tensor  # MHA(attn_in)
    resid_mid: torch.Tensor  # stream after the first sub-layer: LN_1(X + MHA) (post) or X + MHA
    ffn_in: torch.Tensor  # resid_mid (post, none) or LN_2(resid_mid) (pre)
    ffn_hidden: torch.Tensor  # act(ffn_in W_1 + b_1), [batch, pos, d_ff]
    ffn_out: torch.Tensor  # FFN(ffn_in)
    resid_post: torch.Tensor  # the block's output
    sum_1: torch.Tensor  # X + MHA(attn_in), before any LN
    sum_2: torch.Tensor  # resid_mid + FFN(ffn_in), before any LN
    ln_1_hat: torch.Tensor | None  # LN_1's input normalised, before γ, β (None for norm="none")
    ln_2_hat: torch.Tensor | None


class TransformerBlock(nn.Module):
    """One Transformer block with a visible LN placement ``norm`` = post | pre | none.

    Args:
        D, H, d_head, score, bias, mlp_hidden, n_max, check_finite: as for
            ``MultiHeadAttention``.
        d_ff: FFN hidden width D_ff (default 4D). activation: ``relu`` (seed), ``gelu`` or
            ``gelu_tanh``.
        eps: LayerNorm ε. seed: attention is drawn from ``seed``, the FFN from ``seed + 1``.
        dtype, device: as for ``MultiHeadAttention``.

    Shape:
        x (N, D) or (B, N, D) -> out of the same shape, and a ``BlockTrace`` (batched).
    """

    def __init__(
        self,
        D: int,
        H: int,
        d_ff: int | None = None,
        *,
        norm: str = "post",
        activation: str = "relu",
        d_head: int | None = None,
        score: str = "scaled_dot",
        eps: float = 1e-5,
        bias: bool = True,
        mlp_hidden: int = 16,
        n_max: int = MAX_N,
        seed: int = 0,
        check_finite: bool | None = None,
        dtype: str | torch.dtype = torch.float32,
        device: str | torch.device = "auto",
    ) -> None:
        super().__init__()
        D = check_size("D", D)
        d_ff = check_size("d_ff", 4 * D if d_ff is None else d_ff)
        self.norm = check_choice("norm", norm, NORMS)
        self.activation = check_choice("activation", activation, ACTIVATIONS)
        init = Init.of(seed, dtype, device)
        self.attn = MultiHeadAttention(
            D,
            H,
            d_head,
            score=score,
            bias=bias,
            mlp_hidden=mlp_hidden,
            n_max=n_max,
            seed=init.seed,
            check_finite=check_finite,
            dtype=init.dtype,
            device=init.device,
        )
        self.ffn = FeedForward(D, d_ff, activation, init, init.generator(offset=1))
        self.ln_1 = LayerNorm(D, eps, init.dtype)
        self.ln_2 = LayerNorm(D, eps, init.dtype)
        self.to(init.device)

    def forward(
        self, x: torch.Tensor, mask: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, BlockTrace]:
        unbatched = torch.as_tensor(x).dim() == 2
        x = torch.as_tensor(x, dtype=self.ln_1.gamma.dtype, device=self.ln_1.gamma.device)
        if unbatched:
            x = x[None]  # (1, N, D)
        placement = NORMS[self.norm]
        if placement.ln_after_residual:  # S13: Q' = LN_1(X + MHA(X));  out = LN_2(Q' + FFN(Q'))
            attn_in = x
            attn_out, attn = self.attn(attn_in, mask=mask)  # (B, N, D)
            sum_1 = x + attn_out
            resid_mid, ln_1_hat = self.ln_1.traced(sum_1)
            ffn_in = resid_mid
            ffn_out, ffn_hidden = self.ffn(ffn_in)
            sum_2 = resid_mid + ffn_out
            out, ln_2_hat = self.ln_2.traced(sum_2)
        elif placement.ln_before_sublayer:  # S14: h = X + MHA(LN_1(X));  out = h + FFN(LN_2(h))
            attn_in, ln_1_hat = self.ln_1.traced(x)
            attn_out, attn = self.attn(attn_in, mask=mask)  # (B, N, D)
            resid_mid = sum_1 = x + attn_out
            ffn_in, ln_2_hat = self.ln_2.traced(resid_mid)
            ffn_out, ffn_hidden = self.ffn(ffn_in)
            out = sum_2 = resid_mid + ffn_out
        else:  # no LN, the contrast case: h = X + MHA(X);  out = h + FFN(h)
            attn_in, ln_1_hat, ln_2_hat = x, None, None
            attn_out, attn = self.attn(attn_in, mask=mask)  # (B, N, D)
            resid_mid = sum_1 = x + attn_out
            ffn_in = resid_mid
            ffn_out, ffn_hidden = self.ffn(ffn_in)
            out = sum_2 = resid_mid + ffn_out
        trace = BlockTrace(
            attn=attn,
            resid_pre=x,
            attn_in=attn_in,
            attn_out=attn_out,
            resid_mid=resid_mid,
            ffn_in=ffn_in,
            ffn_hidden=ffn_hidden,
            ffn_out=ffn_out,
            resid_post=out,
            sum_1=sum_1,
            sum_2=sum_2,
            ln_1_hat=ln_1_hat,
            ln_2_hat=ln_2_hat,
        )
        return (out[0] if unbatched else out), trace
