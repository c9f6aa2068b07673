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
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from ..block import TransformerStack
from ..limits import MAX_LAYERS, MAX_SEED, check_choice, check_float, check_int
from ..positional import PositionalEncoding

TASKS = ("copy", "reverse", "sort")
NORMS = ("post", "pre")
MAX_RACE_LAYERS = min(12, MAX_LAYERS)  # keeps one race within about a minute on 2 cores
MAX_RACE_STEPS = 600
LR_RANGE = (1e-4, 3e-2)
THREADS = 2  # fixed so that a seed gives the same numbers on every machine


@dataclass(frozen=True)
class RaceConfig:
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


class SeqModel(nn.Module):
    """Embedding + learned positions + ``TransformerStack`` + linear read-out."""

    def __init__(self, cfg: RaceConfig, norm: str) -> None:
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


def make_batch(task: str, cfg: RaceConfig, g: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
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


def race(cfg: RaceConfig, models: dict[str, SeqModel] | None = None) -> Iterator[StepRecord]:
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


def run(cfg: RaceConfig) -> tuple[list[StepRecord], dict[str, np.ndarray]]:
    """The whole race: every step's records and each model's learned W_pos (n, D)."""
    models: dict[str, SeqModel] = {}
    records = list(race(cfg, models))
    return records, positions(models)


def positions(models: dict[str, SeqModel]) -> dict[str, np.ndarray]:
    """The learned positional encodings p_1 … p_n of each model, as float32 arrays."""
    return {k: m.pe.W_pos.detach().float().numpy().copy() for k, m in models.items()}


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
