"""S13 on the real model: what one LayerNorm does to each token, the trained γ, β ∈ ℝ^D that
it applies to every token, and the FFN's width D_ff = 4D.

For token t with input x_t ∈ ℝ^D (the model's own hidden state where the LN sits),
LN(x_t) = γ ⊙ x̂_t + β with x̂_t = (x_t − μ_t) / √(σ_t² + ε). Measured per token:

  * before: μ_t and σ_t of x_t, far from 0 and 1 (the residual sum is not normalised);
  * after normalising, before γ and β: mean_d x̂_td ≈ 0 and var_d x̂_td ≈ 1 (σ² / (σ² + ε));
  * after γ and β: the output's mean and variance, which training moved away from 0 and 1;

and γ's, β's mean and spread beside their initial values 1 and 0 (every other page's LN).
Component by component the N points (x̂_td, LN(x_t)_d) lie on the one line γ_d x + β_d.
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


def per_token(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's mean and (population) variance over its D components, as LN computes them.

    Shape: x (N, D) → (N,), (N,)."""
    return x.mean(axis=1), x.var(axis=1)


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
    x_mean: np.ndarray  # (N,) μ_t of the LN's input x_t
    x_var: np.ndarray  # (N,) σ_t² of x_t
    hat_mean: np.ndarray  # (N,) mean_d x̂_td: ≈ 0
    hat_var: np.ndarray  # (N,) var_d x̂_td: ≈ 1 (σ² / (σ² + ε))
    out_mean: np.ndarray  # (N,) mean_d LN(x_t)_d, after γ and β
    out_var: np.ndarray  # (N,) var_d LN(x_t)_d
    components: tuple[int, ...]  # drawn, 0-based: largest γ_d, smallest γ_d, largest |β_d|
    D: int
    D_ff: int  # the FFN's hidden width, from its W_1 (D, D_ff)
    formulas: list[str]


@torch.inference_mode()
def run(cfg: Config) -> Result:
    """One forward pass of the text; the chosen LayerNorm's γ, β, inputs and outputs, and each
    token's mean and variance before the LN, after normalising and after γ and β."""
    net = model(cfg.model)
    tokens, ids, _ = tokenize(cfg.text, cfg.model)
    block = net.stack.blocks[cfg.layer]
    ln = getattr(block, cfg.site)
    index, hat_name = SITES[cfg.site]
    placement = NORMS[net.arch.norm]  # where this model's LNs read and write
    read = (placement.ln_inputs[index], placement.ln_outputs[index], hat_name)
    got: dict[str, np.ndarray] = {}

    def take(layer: int, trace) -> None:  # the chosen layer's (N, D) arrays, as float64
        if layer == cfg.layer:
            got.update({name: getattr(trace, name)[0].double().cpu().numpy() for name in read})

    # the blocks up to the chosen one, each block's intermediates let go once it has run
    net.forward_each(torch.tensor(ids), take, layers=cfg.layer + 1)
    x, out, x_hat = (got[name] for name in read)  # (N, D) its input, its output, x̂
    gamma = ln.gamma.double().cpu().numpy()  # (D,)
    beta = ln.beta.double().cpu().numpy()
    D, D_ff = block.ffn.W_1.shape
    picks = (int(gamma.argmax()), int(gamma.argmin()), int(np.abs(beta).argmax()))
    (x_mean, x_var), (hat_mean, hat_var), (out_mean, out_var) = map(per_token, (x, x_hat, out))
    return Result(
        tokens=tokens,
        gamma=gamma,
        beta=beta,
        x_hat=x_hat,
        out=out,
        x_mean=x_mean,
        x_var=x_var,
        hat_mean=hat_mean,
        hat_var=hat_var,
        out_mean=out_mean,
        out_var=out_var,
        components=tuple(dict.fromkeys(picks)),  # in order, each once
        D=int(D),
        D_ff=int(D_ff),
        formulas=[formulas.LAYER_NORM, formulas.ffn_width(int(D), int(D_ff))],
    )
