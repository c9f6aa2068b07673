"""Training race (S14): the same small Transformer with post-LN and pre-LN, trained side by side.

Task: a sequence of n tokens from a vocabulary of V symbols is mapped, position by
position, to its copy, its reverse or its sorted version. The model reads

    h_0 = E[x] + W_pos,   h_L = Stack_L(h_0),   logits = h_L W_out     (pre-LN: LN(h_L) W_out)

and minimises the mean cross-entropy over positions with Adam. The learning rate is
lr · min(1, t / T_warm) with warm-up (T_warm = a quarter of the steps) and lr without.
Both models start from the same seed and see the same batches.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, MutableMapping
from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch
from torch import nn
from torch.nn import functional as F

from .. import formulas
from ..block import TransformerStack
from ..limits import MAX_LAYERS, MAX_SEED, check_choice, check_float, check_int
from ..positional import PositionalEncoding

TASKS = ("copy", "reverse", "sort")
NORMS = ("post", "pre")
MAX_RACE_LAYERS = min(12, MAX_LAYERS)  # keeps one race within about a minute on 2 cores
MAX_RACE_STEPS = 600
LR_RANGE = (1e-4, 3e-2)
THREADS = 2  # fixed so that a seed gives the same numbers on every machine
SECONDS_PER_LAYER_STEP = 0.005  # one step of one block, both models, on 2 cores


@dataclass(frozen=True)
class Config:
    task: str = "reverse"
    L: int = 6
    lr: float = 1e-2
    warmup: bool = False
    steps: int = 300
    seed: int = 0
    D: int = 32
    H: int = 2
    n: int = 8  # sequence length
    vocab: int = 10
    batch: int = 32

    def __post_init__(self) -> None:
        check_choice("task", self.task, TASKS)
        check_int("layers", self.L, 1, MAX_RACE_LAYERS)
        check_float("learning rate", self.lr, *LR_RANGE)
        check_int("steps", self.steps, 10, MAX_RACE_STEPS)
        check_int("seed", self.seed, 0, MAX_SEED)

    @property
    def seconds(self) -> int:
        """About how long the race takes, in whole seconds (at least 1)."""
        return max(1, round(self.steps * self.L * SECONDS_PER_LAYER_STEP))


def learning_rate(log10: float) -> float:
    """10^log10 to three significant digits, the rate a slider in log₁₀ stands for."""
    return float(f"{10**log10:.3g}")


class SeqModel(nn.Module):
    """Embedding + learned positions + ``TransformerStack`` + linear read-out."""

    def __init__(self, cfg: Config, norm: str) -> None:
        super().__init__()
        g = torch.Generator().manual_seed(cfg.seed)
        self.E = nn.Parameter(torch.randn(cfg.vocab, cfg.D, generator=g))  # (V, D)
        self.pe = PositionalEncoding(cfg.D, "learned", "add", n_max=cfg.n, seed=cfg.seed + 1)
        self.stack = TransformerStack(
            cfg.L,
            cfg.D,
            cfg.H,
            4 * cfg.D,
            norm=norm,
            final_norm=norm == "pre",
            seed=cfg.seed + 2,
            device="cpu",
        )
        self.W_out = nn.Parameter(torch.randn(cfg.D, cfg.vocab, generator=g) / math.sqrt(cfg.D))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h, _ = self.stack(self.pe(self.E[x]))  # (B, n, D)
        return h @ self.W_out  # (B, n, V)


def make_batch(task: str, cfg: Config, g: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """Random inputs (B, n) and their targets for ``task``."""
    x = torch.randint(0, cfg.vocab, (cfg.batch, cfg.n), generator=g)
    if task == "copy":
        return x, x.clone()
    if task == "reverse":
        return x, x.flip(-1)
    return x, x.sort(-1).values


@dataclass(frozen=True)
class StepRecord:
    step: int
    loss: dict[str, float]  # per norm; NaN once a model has diverged
    acc: dict[str, float]  # token accuracy on this step's batch


def race(cfg: Config, models: dict[str, SeqModel] | None = None) -> Iterator[StepRecord]:
    """Train post-LN and pre-LN in lockstep, yielding one record per step.

    Pass ``models`` to read their learned positional encodings afterwards.
    A model whose loss turns non-finite is frozen and reports NaN from then on.
    """
    previous = torch.get_num_threads()
    torch.set_num_threads(THREADS)
    try:
        models = models if models is not None else {}
        for norm in NORMS:
            models[norm] = SeqModel(cfg, norm)
        opts = {k: torch.optim.Adam(m.parameters(), lr=cfg.lr) for k, m in models.items()}
        alive = dict.fromkeys(NORMS, True)
        g = torch.Generator().manual_seed(cfg.seed + 3)
        warm = max(1, cfg.steps // 4)
        for t in range(1, cfg.steps + 1):
            x, y = make_batch(cfg.task, cfg, g)
            rate = cfg.lr * min(1.0, t / warm) if cfg.warmup else cfg.lr
            loss, acc = {}, {}
            for norm, model in models.items():
                loss[norm], acc[norm] = math.nan, math.nan
                if not alive[norm]:
                    continue
                for group in opts[norm].param_groups:
                    group["lr"] = rate
                try:
                    logits = model(x)  # (B, n, V)
                except ValueError:  # the engine rejects non-finite activations
                    alive[norm] = False
                    continue
                value = F.cross_entropy(logits.reshape(-1, cfg.vocab), y.reshape(-1))
                if not torch.isfinite(value):
                    alive[norm] = False
                    continue
                opts[norm].zero_grad()
                value.backward()
                opts[norm].step()
                loss[norm] = value.item()
                acc[norm] = (logits.argmax(-1) == y).float().mean().item()
            yield StepRecord(t, loss, acc)
    finally:
        torch.set_num_threads(previous)


@dataclass(frozen=True, eq=False)
class LearnedPositions:
    """The positional encodings p_1 … p_n both models of a race learned, and that race."""

    cfg: Config
    tables: dict[str, np.ndarray]  # norm → (n, D) float32


def positions(cfg: Config, models: dict[str, SeqModel]) -> LearnedPositions:
    """The learned positional encodings of each model, as float32 arrays."""
    tables = {k: m.pe.W_pos.detach().float().numpy().copy() for k, m in models.items()}
    return LearnedPositions(cfg, tables)


# A session keeps its latest race's encodings here, for the positional-encoding page.
POSITIONS_KEY = "race_pe"


def keep_positions(state: MutableMapping, positions: LearnedPositions) -> None:
    """Store ``positions`` in a session's ``state`` (Streamlit's session state, say)."""
    state[POSITIONS_KEY] = positions


def learned_positions(state: Mapping) -> LearnedPositions | None:
    """The encodings the session's latest race learned, or None before any race."""
    return state.get(POSITIONS_KEY)


FORMULAS = [formulas.RACE]  # LaTeX of the race's model, read-out and learning-rate schedule


@dataclass(frozen=True)
class Result:
    records: list[StepRecord]
    positions: LearnedPositions
    formulas: list[str]  # LaTeX of what was computed


def run(cfg: Config) -> Result:
    """The whole race: every step's records and each model's learned W_pos (n, D)."""
    models: dict[str, SeqModel] = {}
    records = list(race(cfg, models))
    return Result(records, positions(cfg, models), list(FORMULAS))


def history(records: list[StepRecord]) -> pd.DataFrame:
    """One row per step and norm: step, norm, loss, accuracy (the race's curves)."""
    return pd.DataFrame(
        [(r.step, n, r.loss[n], r.acc[n]) for r in records for n in NORMS],
        columns=["step", "norm", "loss", "accuracy"],
    )


def summary(records: list[StepRecord], last: int = 20) -> dict[str, tuple[float, float]]:
    """Mean loss and accuracy over the last ``last`` steps, per norm (NaN if diverged)."""
    tail = records[-last:]
    return {
        norm: (
            float(np.mean([r.loss[norm] for r in tail])),
            float(np.mean([r.acc[norm] for r in tail])),
        )
        for norm in NORMS
    }
