"""What a training race (S14) leaves: one record per step, the records as tables (the
curves, the last steps' means), the positional encodings both models learned (which the
positional-encoding page offers), and the whole race's result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .model import NORMS, SeqModel

if TYPE_CHECKING:
    from .config import Config
    from .frames import Frames


@dataclass(frozen=True)
class StepRecord:
    step: int
    loss: dict[str, float]  # per norm; NaN once a model has diverged
    acc: dict[str, float]  # token accuracy on this step's batch


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


@dataclass(frozen=True, eq=False)
class LearnedPositions:
    """The positional encodings p_1 … p_n both models of a race learned, and that race."""

    cfg: Config
    tables: dict[str, np.ndarray]  # norm → (n, D) float32


def positions(cfg: Config, models: dict[str, SeqModel]) -> LearnedPositions:
    """The learned positional encodings of each model, as float32 arrays."""
    tables = {k: m.pe.W_pos.detach().float().cpu().numpy().copy() for k, m in models.items()}
    return LearnedPositions(cfg, tables)


@dataclass(frozen=True)
class Result:
    records: list[StepRecord]
    positions: LearnedPositions
    frames: Frames
    formulas: list[str]  # LaTeX of what was computed
