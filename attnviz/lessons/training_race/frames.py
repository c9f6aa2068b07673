"""What a training race records (S14): both models' attention on one fixed probe sequence,
as uint8 maps a ≈ value / 255, and each head's pattern score, at frames spaced quadratically
from initialisation to the last step; replayed by the page as the race's film.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .model import NORMS
from .tasks import chance, pattern, pattern_scores, probe

if TYPE_CHECKING:
    from .config import Config

MAX_FRAMES = 61  # recorded frames per race, initialisation included


def frame_steps(steps: int) -> np.ndarray:
    """The steps after which a race records its frames: 0 (initialisation) to ``steps``.

    Spaced quadratically, so that they are dense early where the maps change fastest, and
    at most one step in four records (the race's wall time stays within a few per cent).
    """
    count = min(MAX_FRAMES, steps // 4 + 1)
    return np.unique(np.round(steps * np.linspace(0.0, 1.0, count) ** 2).astype(np.int64))


class Frames:
    """Both models' attention on the probe sequence, recorded once and replayed.

    ``maps[norm][f]`` holds frame f's weights (L, H, n, n) as uint8, a ≈ value / 255
    (``decode``); ``scores[norm][f]`` each head's pattern score (L, H) from the float32
    weights; ``alive[norm][f]`` is False once that model has diverged (its maps are 0, its
    scores NaN). Arrays are allocated for every frame of ``steps`` up front; the first
    ``count`` hold data (fewer after a stop).
    """

    def __init__(self, cfg: Config, steps: np.ndarray | None = None) -> None:
        self.cfg = cfg
        self.probe = probe(cfg)  # (n,)
        self.target = pattern(cfg.task, self.probe)  # (n, n) bool
        self.steps = frame_steps(cfg.steps) if steps is None else np.asarray(steps, np.int64)
        F, shape = len(self.steps), (cfg.L, cfg.H, cfg.n, cfg.n)
        self.maps = {k: np.zeros((F, *shape), np.uint8) for k in NORMS}
        self.scores = {k: np.full((F, cfg.L, cfg.H), np.nan, np.float32) for k in NORMS}
        self.alive = {k: np.zeros(F, bool) for k in NORMS}
        self.count = 0

    def add(self, weights: Mapping[str, np.ndarray | None]) -> None:
        """Record the next frame: each norm's float weights (L, H, n, n), None if diverged."""
        f = self.count
        for norm, w in weights.items():
            if w is not None and np.isfinite(w).all():
                self.maps[norm][f] = np.rint(w * 255)
                self.scores[norm][f] = pattern_scores(w, self.target)
                self.alive[norm][f] = True
        self.count = f + 1

    def decode(self, f: int, norm: str) -> np.ndarray:
        """Frame f's weights of ``norm`` as float32 (L, H, n, n), within 1/510 of the recorded."""
        return self.maps[norm][f].astype(np.float32) / 255

    def best(self, f: int, norm: str) -> tuple[int, int, float] | None:
        """Frame f's highest-scoring head of ``norm``: (layer, head) from 1, and its score;
        None once that model has diverged."""
        if not self.alive[norm][f]:
            return None
        s = self.scores[norm][f]  # (L, H)
        layer, head = np.unravel_index(np.argmax(s), s.shape)
        return int(layer) + 1, int(head) + 1, float(s[layer, head])

    @property
    def chance(self) -> float:
        return chance(self.target)

    @property
    def nbytes(self) -> int:
        """Bytes held by the arrays (what a session keeps for this race's frames)."""
        arrays = [*self.maps.values(), *self.scores.values(), *self.alive.values()]
        return sum(a.nbytes for a in arrays) + self.steps.nbytes + self.probe.nbytes


def score_table(frames: Frames) -> pd.DataFrame:
    """A row per recorded frame, norm, layer and head (1-based): step, norm, layer, head, score."""
    n = frames.count
    rows = [
        (int(frames.steps[f]), norm, layer + 1, head + 1, float(s[f, layer, head]))
        for norm, s in frames.scores.items()
        for f in range(n)
        for layer in range(frames.cfg.L)
        for head in range(frames.cfg.H)
    ]
    return pd.DataFrame(rows, columns=["step", "norm", "layer", "head", "score"])
