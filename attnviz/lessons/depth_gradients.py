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
from ..block import TransformerStack
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


def xavier_(stack: TransformerStack) -> None:
    """Rescale ``stack``'s matrices in place to Xavier-uniform, U(−a, a), a = √(6 / (fan_in +
    fan_out)), and zero its biases. The engine draws U(−1/√fan_in, 1/√fan_in), so the
    rescale is a multiplication, not a second draw (drawing dominates the cost at D = 512).
    """
    with torch.no_grad():
        for block in stack.blocks:
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


def _stack(
    L: int, D: int, seed: int, x_scale: str
) -> tuple[TransformerStack, torch.Tensor, torch.Tensor]:
    """A seeded depth-L stack (Xavier-uniform, with a final LN that only pre-LN uses), its
    input X and read-out r. Block ℓ depends only on (seed, ℓ), so the first ℓ blocks of a
    deeper stack are the depth-ℓ stack: one pass through 24 blocks serves every depth.
    """
    device = resolve_device()
    stack = TransformerStack(L, D, H, 4 * D, final_norm=True, seed=seed, device=device)
    xavier_(stack)
    g = torch.Generator().manual_seed(seed + 12345)  # drawn on the CPU, then moved
    X = torch.randn(B, N, D, generator=g) * X_SCALES[x_scale](D)  # (B, N, D)
    r = torch.randn(D, generator=g) / math.sqrt(D)  # (D,)
    return stack, X.to(device), r.to(device)


def _losses(stack: TransformerStack, norm: str, X: torch.Tensor, r: torch.Tensor, depths) -> dict:
    """loss_L = mean_i out_i · r of the stack cut after block L, for every L in ``depths``;
    out is the block's output (post-LN) or its final LN (pre-LN). The same weights run in
    either order: the placement is the blocks' ``norm``."""
    x, losses = X, {}
    for depth, block in enumerate(stack.blocks, start=1):
        block.norm = norm
        x, _ = block(x)
        if depth in depths:
            out = stack.final_ln(x) if norm == "pre" else x
            losses[depth] = (out @ r).mean()
    return losses


def layer_gradients(L: int, D: int, seed: int, x_scale: str = "unit") -> dict[str, dict]:
    """norm → {matrix: (L,) ‖∂loss_L/∂W‖_F of every layer}, for both placements, same weights."""
    L = check_int("layers", L, 1, MAX_LAYERS)
    D = check_int("D", D, 8, MAX_D)
    check_choice("input scale", x_scale, X_SCALES)
    out = {}
    with _threads(THREADS):
        stack, X, r = _stack(L, D, seed, x_scale)
        blocks = stack.blocks
        params = {
            "W_2": [b.ffn.W_2 for b in blocks],
            "W_1": [b.ffn.W_1 for b in blocks],
            "W_O": [b.attn.W_O for b in blocks],
            "W_V": [b.attn.W_V for b in blocks],
        }
        flat = [p for ps in params.values() for p in ps]
        for norm in NORMS:
            grads = torch.autograd.grad(_losses(stack, norm, X, r, {L})[L], flat)
            norms = iter(g.norm().item() for g in grads)
            out[norm] = {k: np.array([next(norms) for _ in ps]) for k, ps in params.items()}
    return out


def last_layer_gradients(
    D: int, seed: int, depths: Iterable[int] = TREND_DEPTHS, x_scale: str = "unit"
) -> dict[str, np.ndarray]:
    """norm → the last layer's ‖∂loss_L/∂W_2‖ of the depth-L stack for every L in ``depths``.

    One forward pass through the deepest stack per placement; each loss_L is differentiated
    with respect to block L's W_2 only, which needs no pass back through the blocks below.

    Shape:
        returns {norm: (len(depths),)} float64.
    """
    depths = [check_int("layers", d, 1, MAX_LAYERS) for d in depths]
    out = {}
    with _threads(THREADS):
        stack, X, r = _stack(max(depths), D, seed, x_scale)
        for norm in NORMS:
            losses = _losses(stack, norm, X, r, set(depths))
            out[norm] = np.array(
                [
                    torch.autograd.grad(losses[d], stack.blocks[d - 1].ffn.W_2, retain_graph=True)[
                        0
                    ]
                    .norm()
                    .item()
                    for d in depths
                ]
            )
    return out


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
