"""Gradient norms by depth at initialisation, post-LN vs pre-LN (S13, S14; Xiong et al. 2020).

The setup is in ``depth_model`` (Xavier-uniform weights, the same in either order).

Measured at the page's defaults (D = 128, L = 12 and 3 → 24, seeds 0–2):
  * the last layer's ‖∂loss/∂W_2‖: post-LN stays O(1) as L grows (×1.27 from L = 3 to 24);
    with unit inputs pre-LN's shrinks like 1/√L (×0.40, √(3/24) = 0.35): the stream's
    length grows like √L and the final LN divides by it;
  * per layer at L = 12: with unit inputs pre-LN's gradient falls ~3× from layer 1 to 12
    (×0.31: a layer's gradient passes back through the Jacobians of every block above it, a
    term Xiong et al.'s bound leaves out); with inputs √D larger, as Transformers scale their
    embeddings, the input dominates the stream and every layer gets nearly the same gradient
    (×0.96, their Fig. 3), which then no longer shrinks with L (×0.99).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .. import formulas
from ..limits import MAX_D, MAX_LAYERS, check_choice, check_int
from .depth_model import NORMS, PARAMS, X_SCALES, last_layer_gradients, layer_gradients

TREND_DEPTHS = (1, 2, 3, 6, 12, 24)
RATIO_DEPTHS = (3, 24)  # the trend's ratio: last-layer gradient at L = 24 over L = 3
MAX_SEEDS = 10
WORK_BUDGET = 3 * 256**2 * 2 * MAX_LAYERS  # seeds · D² · (L + 24): 3 seeds at D = 256, L = 24

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


def spread(df: pd.DataFrame, by: str, value: str) -> pd.DataFrame:
    """Mean and standard deviation over seeds of ``value``, per norm and ``by``."""
    return df.groupby(["norm", by])[value].agg(["mean", "std"]).fillna(0.0).reset_index()


@dataclass(frozen=True)
class Result:
    table: pd.DataFrame  # norm, seed, layer (1 … L), one column per matrix in PARAMS
    spread: dict[str, pd.DataFrame]  # matrix → norm, layer, mean, std over seeds
    last_over_first: dict[str, dict[str, float]]  # matrix → norm → layer L's mean over layer 1's


def run(cfg: Config, progress: Progress | None = None) -> Result:
    """Every layer's gradient norms of a depth-L stack, post-LN and pre-LN, per seed."""
    table = by_layer(cfg.L, cfg.D, cfg.seeds_used, cfg.x_scale, progress)
    stats = {p: spread(table, "layer", p) for p in PARAMS}
    first_last = {
        p: {n: float(g["mean"].iloc[-1] / g["mean"].iloc[0]) for n, g in by.groupby("norm")}
        for p, by in stats.items()
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
    return TrendResult(table, stats, reference, ratios, [formulas.grad_scale(cfg.x_scale)])
