"""Gradient norms by depth at initialisation, post-LN vs pre-LN (S13, S14; Xiong et al. 2020).

Setup (the one in which Xiong et al. analyse the two orders):
  * weights Xavier-normal, W ~ N(0, 2 / (fan_in + fan_out)) for every matrix of the block
    (W_Q, W_K, W_V, W_O as D×D maps, W_1, W_2), biases 0, γ = 1, β = 0;
  * pre-LN ends with a final LayerNorm, post-LN does not need one;
  * input X ~ N(0, 1) of shape (B, N, D), a fixed random read-out r ~ N(0, I/D), and
        loss = mean over tokens of  out_i · r.
Post-LN: the last layer's ‖∂loss/∂W_2‖ stays O(1) as L grows (it even rises a little).
Pre-LN: the final LN divides by ‖h_L‖ ∝ √L, so every layer's gradient shrinks like 1/√L.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from .. import formulas
from ..block import TransformerStack
from ..limits import MAX_D, MAX_LAYERS, check_choice, check_int

NORMS = ("post", "pre")
PARAMS = ("W_2", "W_1", "W_O", "W_V")  # per-layer matrices whose gradient norm is reported
TREND_DEPTHS = (1, 2, 3, 6, 12, 24)
RATIO_DEPTHS = (3, 24)  # the trend's ratio: last-layer gradient at L = 24 over L = 3
MAX_SEEDS = 10
THREADS = 2

Progress = Callable[[float], None]  # called with the fraction of the work done


@dataclass(frozen=True)
class TrendConfig:
    """The last layer's gradient against depth: stacks of every depth in ``TREND_DEPTHS``."""

    D: int = 128  # model width
    seeds: int = 3  # seeds 0 … seeds − 1, averaged over

    def __post_init__(self) -> None:
        check_int("D", self.D, 8, MAX_D)
        check_int("seeds", self.seeds, 1, MAX_SEEDS)


@dataclass(frozen=True)
class Config:
    """Per-layer gradients of one depth-L stack; the trend at the same D and seeds."""

    L: int = 12  # depth of the per-layer chart
    D: int = 128
    seeds: int = 3

    def __post_init__(self) -> None:
        check_int("layers", self.L, 1, MAX_LAYERS)
        TrendConfig(self.D, self.seeds)  # checks D and seeds

    @property
    def trend(self) -> TrendConfig:
        """The trend's config: it does not depend on L, so it is computed and cached apart."""
        return TrendConfig(self.D, self.seeds)


def xavier_(stack: TransformerStack, g: torch.Generator) -> None:
    """Re-initialise ``stack`` in place: Xavier-normal matrices, zero biases."""
    with torch.no_grad():
        for block in stack.blocks:
            a, f = block.attn, block.ffn
            D = a.D
            for W in (a.W_Q, a.W_K, a.W_V, a.W_O):  # each a D×(H·D') map seen per head
                W.normal_(0.0, math.sqrt(2.0 / (D + a.H * a.d_head)), generator=g)
            d_ff = f.W_1.shape[1]
            for W in (f.W_1, f.W_2):
                W.normal_(0.0, math.sqrt(2.0 / (D + d_ff)), generator=g)
            for b in (a.b_Q, a.b_K, a.b_V, a.b_O, f.b_1, f.b_2):
                if b is not None:
                    b.zero_()


def layer_gradients(
    norm: str, L: int, D: int, seed: int, *, H: int = 8, N: int = 16, B: int = 4
) -> dict[str, np.ndarray]:
    """‖∂loss/∂W‖_F of every layer for each matrix in ``PARAMS``.

    Shape:
        returns {name: (L,)} float64.
    """
    check_choice("norm", norm, NORMS)
    L = check_int("layers", L, 1, MAX_LAYERS)
    D = check_int("D", D, 8, MAX_D)
    previous = torch.get_num_threads()
    torch.set_num_threads(THREADS)
    try:
        stack = TransformerStack(
            L, D, H, 4 * D, norm=norm, final_norm=norm == "pre", seed=seed, device="cpu"
        )
        g = torch.Generator().manual_seed(seed + 12345)
        xavier_(stack, g)
        X = torch.randn(B, N, D, generator=g)  # (B, N, D)
        r = torch.randn(D, generator=g) / math.sqrt(D)  # (D,)
        out, _ = stack(X)
        loss = (out @ r).mean()
        loss.backward()
    finally:
        torch.set_num_threads(previous)
    blocks = stack.blocks
    grads = {
        "W_2": [b.ffn.W_2 for b in blocks],
        "W_1": [b.ffn.W_1 for b in blocks],
        "W_O": [b.attn.W_O for b in blocks],
        "W_V": [b.attn.W_V for b in blocks],
    }
    return {k: np.array([p.grad.norm().item() for p in ps]) for k, ps in grads.items()}


def by_layer(L: int, D: int, seeds: int, progress: Progress | None = None) -> pd.DataFrame:
    """Per-layer gradient norms of a depth-L stack, post and pre, for seeds 0 … seeds−1.

    Columns: norm, seed, layer (1…L), and one column per name in ``PARAMS``.
    """
    seeds = check_int("seeds", seeds, 1, MAX_SEEDS)
    rows, jobs = [], [(n, s) for s in range(seeds) for n in NORMS]
    for i, (norm, s) in enumerate(jobs):
        g = layer_gradients(norm, L, D, s)
        rows.append(pd.DataFrame({"norm": norm, "seed": s, "layer": np.arange(1, L + 1), **g}))
        if progress:
            progress((i + 1) / len(jobs))
    return pd.concat(rows, ignore_index=True)


def last_layer_trend(
    D: int,
    seeds: int,
    depths: Iterable[int] = TREND_DEPTHS,
    progress: Progress | None = None,
) -> pd.DataFrame:
    """The last layer's ‖∂loss/∂W_2‖ for each depth in ``depths``, post and pre, per seed.

    Columns: norm, seed, L, W_2.
    """
    depths = [check_int("layers", d, 1, MAX_LAYERS) for d in depths]
    seeds = check_int("seeds", seeds, 1, MAX_SEEDS)
    jobs = [(L, n, s) for L in depths for n in NORMS for s in range(seeds)]
    total, done, rows = sum(L for L, _, _ in jobs), 0, []
    for L, norm, s in jobs:
        rows.append((norm, s, L, layer_gradients(norm, L, D, s)["W_2"][-1]))
        done += L
        if progress:
            progress(done / total)
    return pd.DataFrame(rows, columns=["norm", "seed", "L", "W_2"])


def spread(df: pd.DataFrame, by: str, value: str) -> pd.DataFrame:
    """Mean and standard deviation over seeds of ``value``, per norm and ``by``."""
    return df.groupby(["norm", by])[value].agg(["mean", "std"]).fillna(0.0).reset_index()


@dataclass(frozen=True)
class Result:
    table: pd.DataFrame  # norm, seed, layer (1 … L), one column per matrix in PARAMS
    spread: dict[str, pd.DataFrame]  # matrix → norm, layer, mean, std over seeds


def run(cfg: Config, progress: Progress | None = None) -> Result:
    """Every layer's gradient norms of a depth-L stack, post-LN and pre-LN, per seed."""
    table = by_layer(cfg.L, cfg.D, cfg.seeds, progress)
    return Result(table, {p: spread(table, "layer", p) for p in PARAMS})


@dataclass(frozen=True)
class TrendResult:
    table: pd.DataFrame  # norm, seed, L, W_2 (the last layer's)
    spread: pd.DataFrame  # norm, L, mean, std over seeds
    reference: tuple[np.ndarray, np.ndarray]  # (L, g·√(L_0 / L)): 1/√L through pre-LN's first
    ratios: dict[str, float]  # post, pre: mean at RATIO_DEPTHS[1] / at [0]; ref: √(lo / hi)
    formulas: list[str]  # LaTeX of the law the trend shows


def trend(cfg: TrendConfig, progress: Progress | None = None) -> TrendResult:
    """The last layer's ‖∂loss/∂W_2‖ against depth, its 1/√L reference and the ratio lo → hi."""
    table = last_layer_trend(cfg.D, cfg.seeds, progress=progress)
    stats = spread(table, "L", "W_2")
    mean = {n: part.set_index("L")["mean"] for n, part in stats.groupby("norm")}
    Ls = np.array(TREND_DEPTHS, dtype=float)
    reference = (Ls, mean["pre"][TREND_DEPTHS[0]] * np.sqrt(Ls[0] / Ls))
    lo, hi = RATIO_DEPTHS
    ratios = {n: float(mean[n][hi] / mean[n][lo]) for n in NORMS} | {"ref": math.sqrt(lo / hi)}
    return TrendResult(table, stats, reference, ratios, [formulas.GRAD_SCALE])
