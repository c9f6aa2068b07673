"""A training race's configuration (S14): the task, the two models' size, the rate and its
warm-up, and the limits a race accepts (``training_race`` runs it)."""

from __future__ import annotations

from dataclasses import dataclass

from ...limits import (
    MAX_D,
    MAX_H,
    MAX_LAYERS,
    MAX_SEED,
    check_choice,
    check_float,
    check_heads,
    check_int,
)

TASKS = ("copy", "reverse", "sort")
MAX_RACE_LAYERS = min(12, MAX_LAYERS)  # keeps one race within about a minute on 2 cores
MAX_RACE_STEPS = 600
LR_RANGE = (1e-4, 3e-2)
MAX_SEQ, MAX_VOCAB = 32, 100  # the n and V a race accepts (the page keeps 8 and 10)
MAX_BATCH = 256  # sequences a step (the page keeps 32)
# one step of both models on 2 cores with nothing else running: a part for the batch, the
# loss and Adam, and a part per block (least squares over L = 1, 2, 6, 12 by
# bench/bench_training.py, which prints the fit against these)
SECONDS_PER_STEP, SECONDS_PER_LAYER_STEP = 0.005, 0.0072


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
        check_int("n", self.n, 2, MAX_SEQ)
        check_int("vocab", self.vocab, 2, MAX_VOCAB)
        check_int("D", self.D, 1, MAX_D)  # the server's caps: the engine has none
        check_int("H", self.H, 1, MAX_H)
        check_heads(self.D, self.H)
        check_int("batch", self.batch, 1, MAX_BATCH)

    @property
    def seconds(self) -> float:
        """About how long the race's training takes on 2 quiet cores, drawing aside."""
        return self.steps * (SECONDS_PER_STEP + self.L * SECONDS_PER_LAYER_STEP)

    @property
    def warm_steps(self) -> int | None:
        """T_warm, the steps over which the rate grows to lr (None without warm-up)."""
        return max(1, self.steps // 4) if self.warmup else None


def learning_rate(log10: float) -> float:
    """10^log10 to three significant digits, the rate a slider in log₁₀ stands for."""
    return float(f"{10**log10:.3g}")
