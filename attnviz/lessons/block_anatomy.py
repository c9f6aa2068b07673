"""One block's anatomy (S13, S14): the residual stream step by step, and what LN does per token.

LN(x) = γ ⊙ (x − μ) / √(σ² + ε) + β with μ, σ² taken over the D features of one token,
so after normalisation (before γ, β) every token has mean 0 and variance ≈ 1; γ, β ∈ ℝ^D
are shared by all tokens. The FFN is the chapter's: ReLU between W_1 and W_2.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from .. import formulas
from ..block import TransformerBlock
from ..device import resolve_device
from ..limits import MAX_D, MAX_D_FF, MAX_H, MAX_SEED, check_choice, check_heads, check_int
from ..norms import NORMS, placement
from ..text import embed, token_labels, tokenize


def heads(D: int) -> list[int]:
    """The H that split width D into equal heads: the divisors of D in [1, MAX_H]."""
    return [h for h in range(1, MAX_H + 1) if D % h == 0]


@dataclass(frozen=True)
class Config:
    text: str
    norm: str = "post"
    D: int = 64  # width of the word vectors and of the stream
    H: int = 4  # heads; one of heads(D)
    ff: int = 4  # the FFN's width as a multiple of D: D_ff = ff · D
    seed: int = 0

    def __post_init__(self) -> None:
        check_choice("norm", self.norm, NORMS)
        check_int("D", self.D, 1, MAX_D)
        check_int("H", self.H, 1, MAX_H)
        check_int("ff", self.ff, 1, MAX_D_FF)
        check_int("d_ff", self.d_ff, 1, MAX_D_FF)
        check_int("seed", self.seed, 0, MAX_SEED)
        check_heads(self.D, self.H)

    @property
    def d_ff(self) -> int:
        """The FFN's hidden width D_ff."""
        return self.ff * self.D


@dataclass(frozen=True)
class Result:
    tokens: list[str]
    steps: list[str]  # labels, in flow order
    shapes: list[str]  # "N × D" per step
    residuals: list[tuple[int, int]]  # (step added back, step holding the sum), by index
    norms: np.ndarray  # (steps, N) ‖·‖₂ of each token after each step
    ln_in: np.ndarray | None  # (N, D) what LN₁ normalises (None for norm="none")
    ln_hat: np.ndarray | None  # (N, D) LN₁ before γ, β
    stats: pd.DataFrame  # token, mean/var before and after LN₁ (empty for norm="none")
    formulas: list[str]  # LaTeX of what was computed


@torch.inference_mode()
def run(cfg: Config) -> Result:
    """Embed the text (N(0, 1) word vectors), run one block, collect every step."""
    tokens = tokenize(cfg.text)
    X = embed(tokens, cfg.D)  # (N, D)
    device = resolve_device()
    block = TransformerBlock(cfg.D, cfg.H, cfg.d_ff, norm=cfg.norm, seed=cfg.seed, device=device)
    _, trace = block(X.to(device))
    steps, shapes, norms = [], [], []
    for field, label in placement(cfg.norm).stream:
        value = getattr(trace, field)[0]  # (N, D) or (N, D_ff)
        steps.append(label)
        shapes.append(" × ".join(map(str, value.shape)))
        norms.append(value.norm(dim=-1).float().cpu().numpy())
    ln_in = ln_hat = None
    stats = pd.DataFrame()
    if trace.ln_1_hat is not None:
        read = trace.sum_1 if placement(cfg.norm).ln_after_residual else trace.resid_pre
        ln_in = read[0].float().cpu().numpy()  # (N, D): what LN_1 normalises
        ln_hat = trace.ln_1_hat[0].float().cpu().numpy()
        stats = pd.DataFrame(
            {
                "token": token_labels(tokens, escape=False),
                "mean_before": ln_in.mean(-1),
                "var_before": ln_in.var(-1),
                "mean_after": ln_hat.mean(-1),
                "var_after": ln_hat.var(-1),
            }
        )
    shown = [formulas.block(cfg.norm, block.activation)]
    if placement(cfg.norm).has_ln:
        shown.append(formulas.LAYER_NORM)
    fields = [field for field, _ in placement(cfg.norm).stream]
    residuals = [(fields.index(a), fields.index(b)) for a, b in placement(cfg.norm).residuals]
    return Result(tokens, steps, shapes, residuals, np.stack(norms), ln_in, ln_hat, stats, shown)
