"""Gradient norms by depth at initialisation, post-LN vs pre-LN (S13, S14): Xiong et al.
(2020), Fig. 3, reproduced panel by panel, and the stream's length through the stack.

Their Fig. 3 (a 6-6 Transformer on IWSLT14 De–En at initialisation, trained with a
cross-entropy over its vocabulary; ‖∂ℒ/∂W_2‖ of each layer's FFN): (a) post-LN's rises with
the layer index, (b) pre-LN's is about the same at every layer; the last layer's against the
number of layers L: (c) post-LN's stays the same, (d) pre-LN's falls (their Theorem 1:
O(d√(ln d)) and O(d√(ln d / L))).

The setup is in ``depth_model``. Measured at the page's defaults (D = 128, L = 6, unit
inputs, the cross-entropy over V = 1000 words, seeds 0–2), layer L over layer 1 and L = 24
over L = 3, read by ``direction`` (about the same within ×0.80 … ×1.25):
  * (a) post-LN per layer ×0.82: about the same, where theirs rises (not reproduced; why is
    not established);
  * (b) pre-LN per layer ×0.43: falls, where theirs is about the same; with inputs √D times
    larger ×0.99, about the same as theirs;
  * (c) post-LN's last layer ×1.00: about the same, as theirs;
  * (d) pre-LN's last layer ×0.32 (1/√L: ×0.35; c/√L fits with R² = 0.97): falls, as theirs;
    with inputs √D times larger ×0.97, about the same.
With the old loss, the output along one fixed direction (``loss="direction"``): (a) ×1.02,
(b) ×0.53, (c) ×1.27 (rises), (d) ×0.40 (R² = 0.72). After 24 blocks the stream's mean
length is √D with post-LN, ×4.91 the input's with pre-LN and ×4.3·10⁴ with no LN.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .. import formulas
from ..limits import MAX_D, MAX_LAYERS, check_choice, check_int
from .depth_model import (
    LOSSES,
    NORMS,
    PARAMS,
    PLACEMENTS,
    X_SCALES,
    depth_pass,
    layer_gradients,
)

TREND_DEPTHS = (1, 2, 3, 6, 12, 24)
RATIO_DEPTHS = (3, 24)  # the trend's ratio: last-layer gradient at L = 24 over L = 3
SAME_WITHIN = 1.25  # a ratio within ×1/1.25 … ×1.25 reads as about the same (``direction``);
# 1/√L over RATIO_DEPTHS gives ×0.35, far outside it
MIN_R2 = 0.9  # a fitted 1/√L line is drawn only where it explains this much (log–log)
MAX_SEEDS = 10
WORK_BUDGET = 3 * 256**2 * 2 * MAX_LAYERS  # seeds · D² · (L + 24): 3 seeds at D = 256, L = 24

Progress = Callable[[float], None]  # called with the fraction of the work done


@dataclass(frozen=True)
class TrendConfig:
    """The last layer's gradient against depth: stacks of every depth in ``TREND_DEPTHS``."""

    D: int = 128  # model width
    seeds: int = 3  # seeds 0 … seeds − 1, averaged over
    x_scale: str = "unit"  # name in X_SCALES
    loss: str = "xent"  # name in LOSSES: cross-entropy over a vocabulary, or one direction

    def __post_init__(self) -> None:
        check_int("D", self.D, 8, MAX_D)
        check_int("seeds", self.seeds, 1, MAX_SEEDS)
        check_choice("input scale", self.x_scale, X_SCALES)
        check_choice("loss", self.loss, LOSSES)


@dataclass(frozen=True)
class Config:
    """Per-layer gradients of one depth-L stack; the trend at the same D and seeds."""

    L: int = 6  # depth of the per-layer panels: Xiong et al.'s 6 layers
    D: int = 128
    seeds: int = 3
    x_scale: str = "unit"
    loss: str = "xent"

    def __post_init__(self) -> None:
        check_int("layers", self.L, 1, MAX_LAYERS)
        TrendConfig(self.D, self.seeds, self.x_scale, self.loss)  # checks the other fields

    @property
    def seeds_used(self) -> int:
        """``seeds``, or fewer where a wide, deep stack would keep a shared server busy:
        the work grows like seeds · D² · (L + 24) (this chart's stack and the trend's)."""
        return max(1, min(self.seeds, WORK_BUDGET // (self.D**2 * (self.L + MAX_LAYERS))))

    @property
    def trend(self) -> TrendConfig:
        """The trend's config: it does not depend on L, so it is computed and cached apart."""
        return TrendConfig(self.D, self.seeds_used, self.x_scale, self.loss)


def by_layer(
    L: int,
    D: int,
    seeds: int,
    x_scale: str = "unit",
    progress: Progress | None = None,
    loss: str = "xent",
) -> pd.DataFrame:
    """Per-layer gradient norms of a depth-L stack, post and pre, for seeds 0 … seeds−1.

    Columns: norm, seed, layer (1…L), and one column per name in ``PARAMS``.
    """
    seeds = check_int("seeds", seeds, 1, MAX_SEEDS)
    rows = []
    for s in range(seeds):
        for norm, g in layer_gradients(L, D, s, x_scale, loss).items():
            rows.append(pd.DataFrame({"norm": norm, "seed": s, "layer": np.arange(1, L + 1), **g}))
        if progress:
            progress((s + 1) / seeds)
    return pd.concat(rows, ignore_index=True)


def last_layer_trend(
    D: int,
    seeds: int,
    x_scale: str = "unit",
    progress: Progress | None = None,
    loss: str = "xent",
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The last layer's ‖∂loss/∂W_2‖ for each depth in ``TREND_DEPTHS``, post and pre, and
    the stream's length after each block of the deepest stack, post, pre and no LN, per seed.

    Columns: norm, seed, L, W_2; and norm, seed, block (0 = the input … 24), token, length.
    """
    seeds = check_int("seeds", seeds, 1, MAX_SEEDS)
    rows, lengths = [], []
    for s in range(seeds):
        grads, by_block = depth_pass(D, s, TREND_DEPTHS, x_scale, loss)
        for norm, g in grads.items():
            rows += [(norm, s, L, v) for L, v in zip(TREND_DEPTHS, g, strict=True)]
        for norm, ls in by_block.items():  # ls: (blocks + 1, tokens)
            block, token = np.indices(ls.shape)
            lengths.append(
                pd.DataFrame(
                    {
                        "norm": norm,
                        "seed": s,
                        "block": block.ravel(),
                        "token": token.ravel(),
                        "length": ls.ravel(),
                    }
                )
            )
        if progress:
            progress((s + 1) / seeds)
    return pd.DataFrame(rows, columns=["norm", "seed", "L", "W_2"]), pd.concat(lengths)


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
    table = by_layer(cfg.L, cfg.D, cfg.seeds_used, cfg.x_scale, progress, cfg.loss)
    stats = {p: spread(table, "layer", p) for p in PARAMS}
    first_last = {
        p: {n: float(g["mean"].iloc[-1] / g["mean"].iloc[0]) for n, g in by.groupby("norm")}
        for p, by in stats.items()
    }
    return Result(table, stats, first_last)


@dataclass(frozen=True)
class Fit:
    """c/√L fitted to one placement's mean last-layer gradients on the log–log chart, and how
    much of their spread it explains."""

    L: np.ndarray  # the depths, TREND_DEPTHS
    value: np.ndarray  # c/√L at each
    r2: float  # 1 − Σ residual² / Σ (log mean − its average)², on log values

    @property
    def fits(self) -> bool:
        """Whether the line is worth drawing: R² at least ``MIN_R2``."""
        return self.r2 >= MIN_R2


def fit_inverse_sqrt(Ls: np.ndarray, means: np.ndarray) -> Fit:
    """The least-squares c/√L on the log–log chart: a line of slope −½, so log c is the mean of
    log(mean_L · √L), and the line runs through the data's own range rather than through
    L = 1 alone. R² compares its residuals with the data's spread about their average; data
    that do not fall (flat, or rising) give R² near zero or below."""
    logs = np.log(means)
    c = np.exp(np.mean(logs + 0.5 * np.log(Ls)))
    residual = logs - np.log(c / np.sqrt(Ls))
    total = np.sum((logs - logs.mean()) ** 2)
    r2 = 1.0 - float(np.sum(residual**2) / total) if total > 0 else 0.0
    return Fit(Ls, c / np.sqrt(Ls), r2)


@dataclass(frozen=True)
class TrendResult:
    table: pd.DataFrame  # norm, seed, L, W_2 (the last layer's)
    spread: pd.DataFrame  # norm, L, mean, std over seeds
    reference: tuple[np.ndarray, np.ndarray]  # (L, c/√L): c fitted to pre-LN's means
    ratios: dict[str, float]  # post, pre: mean at RATIO_DEPTHS[1] / at [0]; ref: √(lo / hi)
    formulas: list[str]  # LaTeX of the loss and of the law the trend shows
    lengths: pd.DataFrame  # norm (post, pre, none), seed, block, token, length ‖x_ℓ‖
    length_spread: pd.DataFrame  # norm, block, mean, std over tokens and seeds
    growth: dict[str, float]  # placement → mean length after the last block / the input's
    fits: dict[str, Fit]  # norm → c/√L fitted to its means, with R²


def trend(cfg: TrendConfig, progress: Progress | None = None) -> TrendResult:
    """The last layer's ‖∂ℒ/∂W_2‖ against depth, c/√L fitted to each placement's means (R²)
    and the ratio lo → hi; the stream's length after each block."""
    table, lengths = last_layer_trend(cfg.D, cfg.seeds, cfg.x_scale, progress, cfg.loss)
    stats = spread(table, "L", "W_2")
    mean = {n: part.set_index("L")["mean"] for n, part in stats.groupby("norm")}
    Ls = np.array(TREND_DEPTHS, dtype=float)
    fits = {n: fit_inverse_sqrt(Ls, mean[n][list(TREND_DEPTHS)].to_numpy()) for n in NORMS}
    lo, hi = RATIO_DEPTHS
    ratios = {n: float(mean[n][hi] / mean[n][lo]) for n in NORMS} | {"ref": math.sqrt(lo / hi)}
    by_block = spread(lengths, "block", "length")
    first_last = by_block.groupby("norm")["mean"]
    growth = {n: float(g.iloc[-1] / g.iloc[0]) for n, g in first_last}
    by_block = by_block.set_index("norm").loc[list(PLACEMENTS)].reset_index()
    return TrendResult(
        table,
        stats,
        (fits["pre"].L, fits["pre"].value),
        ratios,
        [LOSSES[cfg.loss].formula, formulas.grad_scale(cfg.x_scale)],
        lengths,
        by_block,
        growth,
        fits,
    )


DIRECTIONS = ("rises", "same", "falls")  # the words: depth_gradients.dir_<direction>


def direction(ratio: float) -> str:
    """ "rises", "same" or "falls": a ratio within ×1/SAME_WITHIN … ×SAME_WITHIN reads as
    about the same. The one rule the depth page and the tour's S14 both read."""
    if ratio > SAME_WITHIN:
        return "rises"
    return "falls" if ratio < 1 / SAME_WITHIN else "same"


@dataclass(frozen=True)
class Panel:
    """One panel of Xiong et al.'s Fig. 3 beside this model's: the paper's direction, the
    measured ratio (layer L over layer 1, or L = 24 over L = 3) and its direction."""

    key: str  # a, b, c, d
    norm: str  # post, pre
    paper: str  # the paper's direction: rises, same, falls
    ratio: float

    @property
    def measured(self) -> str:
        return direction(self.ratio)

    @property
    def agrees(self) -> bool:
        return self.measured == self.paper


PAPER = {"a": ("post", "rises"), "b": ("pre", "same"), "c": ("post", "same"), "d": ("pre", "falls")}


def panels(r: Result, t: TrendResult) -> list[Panel]:
    """Fig. 3's four panels, as measured: (a), (b) W_2 of each layer, layer L over layer 1;
    (c), (d) the last layer's W_2, L = 24 over L = 3."""
    ratio = {"a": r.last_over_first["W_2"]["post"], "b": r.last_over_first["W_2"]["pre"]}
    ratio |= {"c": t.ratios["post"], "d": t.ratios["pre"]}
    return [Panel(k, norm, paper, ratio[k]) for k, (norm, paper) in PAPER.items()]
