"""Gradient norms by depth at initialisation, post-LN vs pre-LN (S13, S14; Xiong et al. 2020).

Setup (the one in which Xiong et al. analyse the two orders):
  * weights Xavier-uniform, W ~ U(−a, a), a = √(6 / (fan_in + fan_out)), for every matrix
    of the block (W_Q, W_K, W_V, W_O, W_1, W_2), biases 0, γ = 1, β = 0; post-LN and pre-LN
    run the same weights;
  * pre-LN ends with a final LayerNorm, post-LN does not need one;
  * input X of shape (B, N, D) with N(0, 1) entries, or √D times larger (``x_scale``), a
    fixed random read-out r ~ N(0, I/D), and loss = mean over tokens of out_i · r.
Measured (D = 128, L = 12 and 3 → 24, seeds 0–3):
  * the last layer's ‖∂loss/∂W_2‖: post-LN stays O(1) as L grows (×1.2 from L = 3 to 24);
    with unit inputs pre-LN's shrinks like 1/√L (×0.37, √(3/24) = 0.35): the stream's
    length grows like √L and the final LN divides by it;
  * per layer at L = 12: with unit inputs pre-LN's gradient falls ~3× from layer 1 to 12
    (a layer's gradient passes back through the Jacobians of every block above it, a term
    Xiong et al.'s bound leaves out); with inputs √D larger, as Transformers scale their
    embeddings, the input dominates the stream and every layer gets the same gradient
    (×1.0, their Fig. 3), which then no longer shrinks with L (×0.98).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from .. import formulas
from ..block import SEED_STRIDE, TransformerBlock, TransformerStack
from ..device import resolve_device
from ..limits import MAX_D, MAX_LAYERS, check_choice, check_int

NORMS = ("post", "pre")
PARAMS = ("W_2", "W_1", "W_O", "W_V")  # per-layer matrices whose gradient norm is reported
TREND_DEPTHS = (1, 2, 3, 6, 12, 24)
RATIO_DEPTHS = (3, 24)  # the trend's ratio: last-layer gradient at L = 24 over L = 3
MAX_SEEDS = 10
THREADS = 2
H, B, N = 8, 2, 16  # heads; B sequences of N tokens per gradient
WORK_BUDGET = 3 * 256**2 * 2 * MAX_LAYERS  # seeds · D² · (L + 24): 3 seeds at D = 256, L = 24
X_SCALES = {  # the input tokens' scale: N(0, 1) entries, or √D times that (Transformer embeddings)
    "unit": lambda D: 1.0,
    "sqrt_d": math.sqrt,
}

Progress = Callable[[float], None]  # called with the fraction of the work done


@dataclass(frozen=True)
class TrendConfig:
    """The last layer's gradient against depth: stacks of every depth in ``TREND_DEPTHS``."""

    D: int = 128  # model width
    seeds: int = 3  # seeds 0 … seeds − 1, averaged over
    x_scale: str = "unit"  # name in X_SCALES

    def __post_init__(self) -> None:
        check_int("D", self.D, 8, MAX_D)
        check_int("seeds", self.seeds, 1, MAX_SEEDS)
        check_choice("input scale", self.x_scale, X_SCALES)


@dataclass(frozen=True)
class Config:
    """Per-layer gradients of one depth-L stack; the trend at the same D and seeds."""

    L: int = 12  # depth of the per-layer chart
    D: int = 128
    seeds: int = 3
    x_scale: str = "unit"

    def __post_init__(self) -> None:
        check_int("layers", self.L, 1, MAX_LAYERS)
        TrendConfig(self.D, self.seeds, self.x_scale)  # checks D, seeds and x_scale

    @property
    def seeds_used(self) -> int:
        """``seeds``, or fewer where a wide, deep stack would keep a shared server busy:
        the work grows like seeds · D² · (L + 24) (this chart's stack and the trend's)."""
        return max(1, min(self.seeds, WORK_BUDGET // (self.D**2 * (self.L + MAX_LAYERS))))

    @property
    def trend(self) -> TrendConfig:
        """The trend's config: it does not depend on L, so it is computed and cached apart."""
        return TrendConfig(self.D, self.seeds_used, self.x_scale)


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


def _stack(L: int, D: int, seed: int) -> TransformerStack:
    """The seeded depth-L stack, Xavier-uniform, with a final LN that only pre-LN uses, and no
    parameter requiring a gradient until a caller asks for one. Block i depends only on
    (seed, i), so the first ℓ blocks of a deeper stack are the depth-ℓ stack."""
    stack = TransformerStack(L, D, H, 4 * D, final_norm=True, seed=seed, device=resolve_device())
    xavier_(stack.blocks)
    return stack.requires_grad_(False)


def _inputs(D: int, seed: int, x_scale: str) -> tuple[torch.Tensor, torch.Tensor]:
    """The input X (B, N, D) and the read-out r (D,), drawn on the CPU, then moved."""
    g = torch.Generator().manual_seed(seed + 12345)
    X = torch.randn(B, N, D, generator=g) * X_SCALES[x_scale](D)
    r = torch.randn(D, generator=g) / math.sqrt(D)
    return X.to(resolve_device()), r.to(resolve_device())


def _output(stack: TransformerStack, norm: str, x: torch.Tensor) -> torch.Tensor:
    """What the loss reads: the last block's output (post-LN) or its final LN (pre-LN)."""
    return stack.final_ln(x) if norm == "pre" else x


def layer_gradients(L: int, D: int, seed: int, x_scale: str = "unit") -> dict[str, dict]:
    """norm → {matrix: (L,) ‖∂loss_L/∂W‖_F of every layer}, for both placements, same weights.

    loss_L = mean_i out_i · r. Only the reported matrices require a gradient, and each is
    reduced to its norm and dropped as soon as backward has written it: at D = 512, L = 24
    keeping them all would hold 240 MB next to the 280 MB of weights.
    """
    L = check_int("layers", L, 1, MAX_LAYERS)
    D = check_int("D", D, 8, MAX_D)
    check_choice("input scale", x_scale, X_SCALES)
    out = {}
    with _threads(THREADS):
        stack, (X, r) = _stack(L, D, seed), _inputs(D, seed, x_scale)
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
            (_output(stack, norm, x) @ r).mean().backward()
            out[norm] = {k: np.array([norms[id(p)] for p, _ in ps]) for k, ps in params.items()}
    return out


def last_layer_gradients(
    D: int, seed: int, depths: Iterable[int] = TREND_DEPTHS, x_scale: str = "unit"
) -> dict[str, np.ndarray]:
    """norm → the last layer's ‖∂loss_L/∂W_2‖ of the depth-L stack for every L in ``depths``.

    One pass through the deepest stack, both placements side by side, one block alive at a
    time: loss_L depends on block L's W_2 only through block L's output, so its gradient
    needs no pass back through the blocks below, and a block is dropped once both streams
    have gone through it.

    Shape:
        returns {norm: (len(depths),)} float64.
    """
    depths = [check_int("layers", d, 1, MAX_LAYERS) for d in depths]
    grads: dict[str, dict[int, float]] = {norm: {} for norm in NORMS}
    with _threads(THREADS):
        X, r = _inputs(D, seed, x_scale)
        x = dict.fromkeys(NORMS, X)
        for depth in range(1, max(depths) + 1):
            stack = _stack(1, D, seed + SEED_STRIDE * (depth - 1))  # block ``depth`` alone
            block, W_2 = stack.blocks[0], stack.blocks[0].ffn.W_2
            W_2.requires_grad_(depth in depths)
            for norm in NORMS:
                block.norm = norm
                x[norm], _ = block(x[norm])
                if depth in depths:
                    loss = (_output(stack, norm, x[norm]) @ r).mean()
                    grads[norm][depth] = torch.autograd.grad(loss, W_2)[0].norm().item()
                    x[norm] = x[norm].detach()
    return {norm: np.array([g[d] for d in depths]) for norm, g in grads.items()}


def by_layer(
    L: int, D: int, seeds: int, x_scale: str = "unit", progress: Progress | None = None
) -> pd.DataFrame:
    """Per-layer gradient norms of a depth-L stack, post and pre, for seeds 0 … seeds−1.

    Columns: norm, seed, layer (1…L), and one column per name in ``PARAMS``.
    """
    seeds = check_int("seeds", seeds, 1, MAX_SEEDS)
    rows = []
    for s in range(seeds):
        for norm, g in layer_gradients(L, D, s, x_scale).items():
            rows.append(pd.DataFrame({"norm": norm, "seed": s, "layer": np.arange(1, L + 1), **g}))
        if progress:
            progress((s + 1) / seeds)
    return pd.concat(rows, ignore_index=True)


def last_layer_trend(
    D: int, seeds: int, x_scale: str = "unit", progress: Progress | None = None
) -> pd.DataFrame:
    """The last layer's ‖∂loss/∂W_2‖ for each depth in ``TREND_DEPTHS``, post and pre, per seed.

    Columns: norm, seed, L, W_2.
    """
    seeds = check_int("seeds", seeds, 1, MAX_SEEDS)
    rows = []
    for s in range(seeds):
        for norm, grads in last_layer_gradients(D, s, TREND_DEPTHS, x_scale).items():
            rows += [(norm, s, L, g) for L, g in zip(TREND_DEPTHS, grads, strict=True)]
        if progress:
            progress((s + 1) / seeds)
    return pd.DataFrame(rows, columns=["norm", "seed", "L", "W_2"])


@contextmanager
def _threads(n: int) -> Iterator[None]:
    """Run torch on ``n`` threads inside the block (the app's server has 2 cores)."""
    previous = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(previous)


def spread(df: pd.DataFrame, by: str, value: str) -> pd.DataFrame:
    """Mean and standard deviation over seeds of ``value``, per norm and ``by``."""
    return df.groupby(["norm", by])[value].agg(["mean", "std"]).fillna(0.0).reset_index()


@dataclass(frozen=True)
class Result:
    table: pd.DataFrame  # norm, seed, layer (1 … L), one column per matrix in PARAMS
    spread: dict[str, pd.DataFrame]  # matrix → norm, layer, mean, std over seeds
    last_over_first: dict[str, float]  # norm → layer L's mean ‖∂loss/∂W_2‖ over layer 1's


def run(cfg: Config, progress: Progress | None = None) -> Result:
    """Every layer's gradient norms of a depth-L stack, post-LN and pre-LN, per seed."""
    table = by_layer(cfg.L, cfg.D, cfg.seeds_used, cfg.x_scale, progress)
    stats = {p: spread(table, "layer", p) for p in PARAMS}
    first_last = {
        n: float(part["mean"].iloc[-1] / part["mean"].iloc[0])
        for n, part in stats["W_2"].groupby("norm")
    }
    return Result(table, stats, first_last)


@dataclass(frozen=True)
class TrendResult:
    table: pd.DataFrame  # norm, seed, L, W_2 (the last layer's)
    spread: pd.DataFrame  # norm, L, mean, std over seeds
    reference: tuple[np.ndarray, np.ndarray]  # (L, g·√(L_0 / L)): 1/√L through pre-LN's first
    ratios: dict[str, float]  # post, pre: mean at RATIO_DEPTHS[1] / at [0]; ref: √(lo / hi)
    formulas: list[str]  # LaTeX of the law the trend shows


def trend(cfg: TrendConfig, progress: Progress | None = None) -> TrendResult:
    """The last layer's ‖∂loss/∂W_2‖ against depth, its 1/√L reference and the ratio lo → hi."""
    table = last_layer_trend(cfg.D, cfg.seeds, cfg.x_scale, progress)
    stats = spread(table, "L", "W_2")
    mean = {n: part.set_index("L")["mean"] for n, part in stats.groupby("norm")}
    Ls = np.array(TREND_DEPTHS, dtype=float)
    reference = (Ls, mean["pre"][TREND_DEPTHS[0]] * np.sqrt(Ls[0] / Ls))
    lo, hi = RATIO_DEPTHS
    ratios = {n: float(mean[n][hi] / mean[n][lo]) for n in NORMS} | {"ref": math.sqrt(lo / hi)}
    return TrendResult(table, stats, reference, ratios, [formulas.GRAD_SCALE])
