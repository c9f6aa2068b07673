"""Training race (S14): the same small Transformer with post-LN and pre-LN, trained side by side.

Task: a sequence of n tokens from a vocabulary of V symbols is mapped, position by
position, to its copy, its reverse or its sorted version. The model reads

    h_0 = E[x] + W_pos,   h_L = Stack_L(h_0),   logits = h_L W_out     (pre-LN: LN(h_L) W_out)

and minimises the mean cross-entropy over positions with Adam. The learning rate is
lr · min(1, t / T_warm) with warm-up (T_warm = a quarter of the steps) and lr without.
Both models start from the same seed and see the same batches.

While they learn, a race records both models' attention weights a^{(l,h)} on one fixed
probe sequence (``frames.Frames``, uint8 maps), and each head's pattern score: the mean share
of a row's weight on the key that holds what the output needs, (1/n) Σ_i Σ_{j ∈ T(i)} a_ij
with T(i) = {i} (copy), {n + 1 − i} (reverse) or the keys of rank i (sort), 1-based.
The model is ``model.SeqModel``; the tasks and the score are in ``tasks``.
The configuration is ``config.Config``; what a race leaves (its records, their
tables, the positions learned) is in ``results``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping

import numpy as np
import torch
from torch.nn import functional as F

from ... import formulas
from ...device import resolve_device
from ...errors import Diverged
from ..threads import one_thread
from .config import Config
from .frames import Frames
from .model import NORMS, SeqModel
from .results import Result, StepRecord, positions
from .tasks import make_batch, probe


def _weights(models: Mapping[str, SeqModel], alive: Mapping[str, bool], x: torch.Tensor) -> dict:
    out: dict[str, np.ndarray | None] = {}
    for norm, model in models.items():
        try:
            out[norm] = model.weights(x) if alive[norm] else None
        except Diverged:
            out[norm] = None
    return out


def race(
    cfg: Config,
    models: dict[str, SeqModel] | None = None,
    frames: Frames | None = None,
    device: str | torch.device = "auto",
) -> Iterator[StepRecord]:
    """Train post-LN and pre-LN in lockstep, yielding one record per step.

    Pass ``models`` to read their learned positional encodings afterwards, and ``frames``
    (``Frames(cfg)``) to record the probe's maps after the steps in ``frames.steps``.
    A model whose loss turns non-finite is frozen and reports NaN from then on.
    """
    device = resolve_device(device, many_small_kernels=True)
    with one_thread():  # the same numbers as two threads, faster beside other work
        models = models if models is not None else {}
        for norm in NORMS:
            models[norm] = SeqModel(cfg, norm, device)
        opts = {k: torch.optim.Adam(m.parameters(), lr=cfg.lr) for k, m in models.items()}
        alive = dict.fromkeys(NORMS, True)
        g = torch.Generator().manual_seed(cfg.seed + 3)
        x_probe = torch.from_numpy(probe(cfg)).to(device)
        record = set(frames.steps.tolist()) if frames is not None else set()
        if 0 in record:
            frames.add(_weights(models, alive, x_probe))
        for t in range(1, cfg.steps + 1):
            x, y = make_batch(cfg.task, cfg, g)  # drawn on the CPU: the same batches anywhere
            x, y = x.to(device), y.to(device)
            rate = cfg.lr * min(1.0, t / cfg.warm_steps) if cfg.warmup else cfg.lr
            loss, acc = {}, {}
            for norm, model in models.items():
                loss[norm], acc[norm] = math.nan, math.nan
                if not alive[norm]:
                    continue
                for group in opts[norm].param_groups:
                    group["lr"] = rate
                try:
                    logits = model(x)  # (B, n, V)
                except Diverged:
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
            if t in record:
                frames.add(_weights(models, alive, x_probe))
            yield StepRecord(t, loss, acc)


def initial(cfg: Config) -> Frames:
    """Both models' maps at initialisation, the one frame shown before a race is run.

    Computed on the CPU on any host: one 8-token forward pass of two small models takes a
    few milliseconds there, less than moving their parameters to a GPU.
    """
    with one_thread():  # the same numbers as two threads, faster beside other work
        frames = Frames(cfg, steps=[0])
        x = torch.from_numpy(frames.probe)
        models = {norm: SeqModel(cfg, norm, "cpu") for norm in NORMS}
        frames.add(_weights(models, dict.fromkeys(NORMS, True), x))
    return frames


def race_formulas(cfg: Config) -> list[str]:
    """LaTeX of the race as ``cfg`` runs it: model, read-outs, rate schedule; pattern score."""
    return [formulas.race(cfg.warm_steps), formulas.pattern_score(cfg.task)]


def run(cfg: Config) -> Result:
    """The whole race: every step's records, the recorded frames and each model's W_pos."""
    models: dict[str, SeqModel] = {}
    frames = Frames(cfg)
    records = list(race(cfg, models, frames))
    return Result(records, positions(cfg, models), frames, race_formulas(cfg))
