"""One seed's gradients of the depth experiment (S13, S14; Xiong et al. 2020), at initialisation.

Setup (the one in which Xiong et al. analyse the two orders):
  * weights Xavier-uniform, W ~ U(−a, a), a = √(6 / (fan_in + fan_out)), for every matrix
    of the block (W_Q, W_K, W_V, W_O, W_1, W_2), biases 0, γ = 1, β = 0; post-LN and pre-LN
    run the same weights;
  * pre-LN ends with a final LayerNorm, post-LN does not need one;
  * input X of shape (B, N, D) with N(0, 1) entries, or √D times larger (``x_scale``);
  * the loss (``LOSSES``): by default, as in Xiong et al.'s translation model, a cross-entropy
    over a vocabulary of V = 1000 words: the output o_i is read through a projection
    W_out ∈ ℝ^{D×V} with N(0, 1/D) entries (fairseq's initialisation of a translation
    model's shared embedding) to logits, against a random target word y_i per token; or, as
    an option, the output read along one fixed random direction r ~ N(0, I/D), loss = mean
    over tokens of o_i · r.

The pass that gives the last layer's gradient at every depth also runs the same blocks with
no LN and measures ‖x_ℓ‖ per token after each block, in all three placements.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, fields, replace

import numpy as np
import torch

from .. import formulas
from ..block import TransformerBlock
from ..device import resolve_device
from ..limits import MAX_D, MAX_LAYERS, check_choice, check_int
from ..norms import NORMS as PLACEMENTS
from ..norms import placement
from ..stack import SEED_STRIDE, TransformerStack
from .threads import one_thread

NORMS = ("post", "pre")
PARAMS = ("W_2", "W_1", "W_O", "W_V")  # per-layer matrices whose gradient norm is reported
H, B, N = 8, 2, 16  # heads; B sequences of N tokens per gradient
V = 1000  # the cross-entropy's vocabulary
X_SCALES = {  # the input tokens' entries: N(0, 1), so ‖x_0‖ ≈ √D (the length of embeddings
    # drawn N(0, 1/D) and multiplied by √D, as Vaswani et al. do); or √D times that, ‖x_0‖ ≈ D,
    # far more than the blocks add (no standard model scales its input so)
    "unit": lambda D: 1.0,
    "sqrt_d": math.sqrt,
}


def xavier_(blocks: Iterable[TransformerBlock]) -> None:
    """Rescale the blocks' matrices in place to Xavier-uniform, U(−a, a), a = √(6 / (fan_in +
    fan_out)), and zero their biases. The engine draws U(−1/√fan_in, 1/√fan_in), so the
    rescale is a multiplication, not a second draw (drawing dominates the cost at D = 512).
    """
    with torch.no_grad():
        for block in blocks:
            a, f = block.attn, block.ffn
            d_ff = f.W_1.shape[1]
            for W, fan_in, fan_out in (
                *((W, a.D, a.H * a.d_head) for W in (a.W_Q, a.W_K, a.W_V)),  # D → H·D′
                (a.W_O, a.H * a.d_head, a.D),
                (f.W_1, a.D, d_ff),
                (f.W_2, d_ff, a.D),
            ):
                W.mul_(math.sqrt(6.0 / (fan_in + fan_out)) * math.sqrt(fan_in))
            for b in (a.b_Q, a.b_K, a.b_V, a.b_O, f.b_1, f.b_2):
                if b is not None:
                    b.zero_()


def _device() -> torch.device:
    """Where the depth models compute: 24 small blocks, forward and backward, launch many
    short kernels, which the CPU runs sooner than a GPU (attnviz.device's note)."""
    return resolve_device(many_small_kernels=True)


def _stack(L: int, D: int, seed: int) -> TransformerStack:
    """The seeded depth-L stack, Xavier-uniform, with a final LN that only pre-LN uses, and no
    parameter requiring a gradient until a caller asks for one. Block i depends only on
    (seed, i), so the first ℓ blocks of a deeper stack are the depth-ℓ stack."""
    stack = TransformerStack(L, D, H, 4 * D, final_norm=True, seed=seed, device=_device())
    xavier_(stack.blocks)
    return stack.requires_grad_(False)


@dataclass(frozen=True)
class CrossEntropy:
    """ℒ = −(1/BN) Σ_i log softmax(o_i W_out)_{y_i}: a vocabulary of V words, random targets.

    Shape: W_out (D, V), y (B, N) word indices."""

    W_out: torch.Tensor
    y: torch.Tensor
    formula = formulas.cross_entropy_loss(V)

    @classmethod
    def draw(cls, D: int, g: torch.Generator) -> CrossEntropy:
        W_out = torch.randn(D, V, generator=g) / math.sqrt(D)  # unit-variance logits at ‖o‖ = √D
        return cls(W_out, torch.randint(V, (B, N), generator=g))

    def __call__(self, out: torch.Tensor) -> torch.Tensor:
        logits = out @ self.W_out  # (B, N, V)
        return torch.nn.functional.cross_entropy(logits.flatten(0, 1), self.y.flatten())


@dataclass(frozen=True)
class Direction:
    """ℒ = (1/BN) Σ_i o_i · r: the output read along one fixed direction r (D,)."""

    r: torch.Tensor
    formula = formulas.direction_loss()

    @classmethod
    def draw(cls, D: int, g: torch.Generator) -> Direction:
        return cls(torch.randn(D, generator=g) / math.sqrt(D))

    def __call__(self, out: torch.Tensor) -> torch.Tensor:
        return (out @ self.r).mean()


Loss = CrossEntropy | Direction
LOSSES: dict[str, type[Loss]] = {"xent": CrossEntropy, "direction": Direction}


def _inputs(D: int, seed: int, x_scale: str, loss: str = "xent") -> tuple[torch.Tensor, Loss]:
    """The input X (B, N, D) and the loss on the read-out, drawn on the CPU, then moved."""
    g = torch.Generator().manual_seed(seed + 12345)
    X = torch.randn(B, N, D, generator=g) * X_SCALES[x_scale](D)
    lossf = LOSSES[loss].draw(D, g)
    moved = {f.name: getattr(lossf, f.name).to(_device()) for f in fields(lossf)}
    return X.to(_device()), replace(lossf, **moved)


def _output(stack: TransformerStack, norm: str, x: torch.Tensor) -> torch.Tensor:
    """What the loss reads: the last block's output (post-LN) or its final LN (pre-LN)."""
    return stack.final_ln(x) if placement(norm).final_ln else x


def layer_gradients(
    L: int, D: int, seed: int, x_scale: str = "unit", loss: str = "xent"
) -> dict[str, dict]:
    """norm → {matrix: (L,) ‖∂ℒ/∂W‖_F of every layer}, for both placements, same weights.

    ℒ is the loss ``loss`` names in ``LOSSES`` on the stack's read-out. Only the reported
    matrices require a gradient, and each is reduced to its norm and dropped as soon as
    backward has written it: at D = 512, L = 24 keeping them all would hold 240 MB next to
    the 280 MB of weights.
    """
    L = check_int("layers", L, 1, MAX_LAYERS)
    D = check_int("D", D, 8, MAX_D)
    check_choice("input scale", x_scale, X_SCALES)
    check_choice("loss", loss, LOSSES)
    out = {}
    with one_thread():
        stack, (X, lossf) = _stack(L, D, seed), _inputs(D, seed, x_scale, loss)
        blocks = stack.blocks
        # matrix → (the parameter that holds it, the part of that parameter's gradient it is):
        # W_V is a view of the fused W^{Q,K,V}, (D, 3, H, D′), so its gradient is slice 2.
        params = {
            "W_2": [(b.ffn.W_2, ...) for b in blocks],
            "W_1": [(b.ffn.W_1, ...) for b in blocks],
            "W_O": [(b.attn.W_O, ...) for b in blocks],
            "W_V": [(b.attn.W_QKV, (slice(None), 2)) for b in blocks],
        }
        part = {id(p): where for ps in params.values() for p, where in ps}
        norms: dict[int, float] = {}  # id(parameter) → the norm of its reported part's gradient

        def record(p: torch.Tensor) -> None:
            norms[id(p)] = p.grad[part[id(p)]].norm().item()
            p.grad = None

        for p, _ in (pw for ps in params.values() for pw in ps):
            p.requires_grad_(True)
            p.register_post_accumulate_grad_hook(record)
        for norm in NORMS:  # the same weights in either order: the blocks' ``norm`` says which
            x = X
            for block in blocks:
                block.norm = norm
                x, _ = block(x)
            lossf(_output(stack, norm, x)).backward()
            out[norm] = {k: np.array([norms[id(p)] for p, _ in ps]) for k, ps in params.items()}
    return out


def last_layer_gradients(
    D: int, seed: int, depths: Iterable[int], x_scale: str = "unit", loss: str = "xent"
) -> dict[str, np.ndarray]:
    """norm → the last layer's ‖∂loss_L/∂W_2‖ of the depth-L stack for every L in ``depths``
    (``depth_pass``'s gradients)."""
    return depth_pass(D, seed, depths, x_scale, loss)[0]


def depth_pass(
    D: int, seed: int, depths: Iterable[int], x_scale: str = "unit", loss: str = "xent"
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """(norm → the last layer's ‖∂loss_L/∂W_2‖ of the depth-L stack for every L in ``depths``,
    placement → ‖x_ℓ‖ of every token after block ℓ = 0 (the input) … max(depths)).

    One pass through the deepest stack, every placement side by side, one block alive at a
    time: loss_L depends on block L's W_2 only through block L's output, so its gradient
    needs no pass back through the blocks below, and a block is dropped once every stream
    has gone through it. The lengths are the stream's own, post, pre and no LN (pre-LN's
    final LN is its read-out, not part of the stream).

    Shape:
        returns ({norm: (len(depths),)}, {placement: (max(depths) + 1, B · N)}) float64.
    """
    depths = [check_int("layers", d, 1, MAX_LAYERS) for d in depths]
    check_choice("loss", loss, LOSSES)
    grads: dict[str, dict[int, float]] = {norm: {} for norm in NORMS}
    with one_thread():
        X, lossf = _inputs(D, seed, x_scale, loss)
        x = dict.fromkeys(PLACEMENTS, X)
        lengths = {norm: [X.norm(dim=-1).flatten()] for norm in PLACEMENTS}
        for depth in range(1, max(depths) + 1):
            stack = _stack(1, D, seed + SEED_STRIDE * (depth - 1))  # block ``depth`` alone
            block, W_2 = stack.blocks[0], stack.blocks[0].ffn.W_2
            for norm in PLACEMENTS:
                block.norm = norm
                traced = norm in NORMS and depth in depths
                W_2.requires_grad_(traced)
                x[norm], _ = block(x[norm])
                if traced:
                    value = lossf(_output(stack, norm, x[norm]))
                    grads[norm][depth] = torch.autograd.grad(value, W_2)[0].norm().item()
                    x[norm] = x[norm].detach()
                lengths[norm].append(x[norm].detach().norm(dim=-1).flatten())  # (B · N,)
    return (
        {norm: np.array([g[d] for d in depths]) for norm, g in grads.items()},
        {norm: torch.stack(ls).double().cpu().numpy() for norm, ls in lengths.items()},
    )
