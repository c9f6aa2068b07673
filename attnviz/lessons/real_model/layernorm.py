"""S13 on the real model: one LayerNorm's trained γ, β ∈ ℝ^D, the same pair for every token,
and the FFN's width D_ff = 4D.

For token t with input x_t ∈ ℝ^D, LN(x_t) = γ ⊙ x̂_t + β with x̂_t = (x_t − μ_t) / √(σ_t² + ε).
The check: with the model's own γ and β, every token's output is that map of its own x̂_t,

    residual = max_{t, d} |LN(x_t)_d − (γ_d x̂_td + β_d)|   (≈ 1e-7 in float32)

so, component by component, the N points (x̂_td, LN(x_t)_d) lie on the one line γ_d x + β_d.
At initialisation γ = 1 and β = 0 (every other page's LN); trained, they are what is drawn.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from ... import formulas
from ...limits import check_choice, check_int
from ...norms import NORMS
from .forward import MODEL, check_model, check_text, model, size, tokenize

# each LN of a block, by its position in the placement's ``ln_outputs``, and the trace's field
# of its normalised input; its output's field is the model's placement's (post: the sums
# normalised, resid_mid and resid_post; pre: what each sub-layer reads, attn_in and ffn_in)
SITES = {"ln_1": (0, "ln_1_hat"), "ln_2": (1, "ln_2_hat")}


@dataclass(frozen=True)
class Config:
    text: str
    layer: int = 0  # in [0, L − 1]
    site: str = "ln_1"  # one of SITES: the block's first LN or its second
    model: str = MODEL

    def __post_init__(self) -> None:
        check_model(self.model)
        check_text(self.text, self.model)
        check_choice("layer norm", self.site, tuple(SITES))
        check_int("layer", self.layer, 0, size(self.model)[0] - 1)


@dataclass(frozen=True)
class Result:
    tokens: list[str]  # the N WordPiece tokens, [CLS] … [SEP]
    gamma: np.ndarray  # (D,) the trained γ
    beta: np.ndarray  # (D,) the trained β
    x_hat: np.ndarray  # (N, D) each token's input normalised, before γ and β
    out: np.ndarray  # (N, D) the LayerNorm's output, as the model's forward pass gave it
    residual: float  # max_{t,d} |out_td − (γ_d x̂_td + β_d)|: one pair for every token
    mean: float  # max_t |mean_d x̂_td|: each token centred
    var: float  # max_t |var_d x̂_td − 1|: each token of variance ≈ 1 (ε aside)
    components: tuple[int, ...]  # drawn, 0-based: largest γ_d, smallest γ_d, largest |β_d|
    D: int
    D_ff: int  # the FFN's hidden width, from its W_1 (D, D_ff)
    formulas: list[str]


@torch.inference_mode()
def run(cfg: Config) -> Result:
    """One forward pass of the text; the chosen LayerNorm's γ, β, inputs and outputs."""
    net = model(cfg.model)
    tokens, ids, _ = tokenize(cfg.text, cfg.model)
    _, traces = net(torch.tensor(ids))
    block = net.stack.blocks[cfg.layer]
    ln = getattr(block, cfg.site)
    index, hat_name = SITES[cfg.site]
    out_name = NORMS[net.arch.norm].ln_outputs[index]
    out = getattr(traces[cfg.layer], out_name)[0].double().cpu().numpy()  # (N, D)
    x_hat = getattr(traces[cfg.layer], hat_name)[0].double().cpu().numpy()  # (N, D)
    gamma = ln.gamma.double().cpu().numpy()  # (D,)
    beta = ln.beta.double().cpu().numpy()
    residual = float(np.abs(out - (gamma * x_hat + beta)).max())
    D, D_ff = block.ffn.W_1.shape
    picks = (int(gamma.argmax()), int(gamma.argmin()), int(np.abs(beta).argmax()))
    return Result(
        tokens=tokens,
        gamma=gamma,
        beta=beta,
        x_hat=x_hat,
        out=out,
        residual=residual,
        mean=float(np.abs(x_hat.mean(1)).max()),
        var=float(np.abs(x_hat.var(1) - 1).max()),
        components=tuple(dict.fromkeys(picks)),  # in order, each once
        D=int(D),
        D_ff=int(D_ff),
        formulas=[formulas.LAYER_NORM, formulas.ffn_width(int(D), int(D_ff))],
    )
