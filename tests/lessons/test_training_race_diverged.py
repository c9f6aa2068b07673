"""A race's divergence is its own outcome (``Diverged``), not any ValueError."""

from __future__ import annotations

import math

import pytest
import torch

from attnviz.errors import Diverged
from attnviz.lessons import training_race as training
from attnviz.lessons.training_race import config as race_config
from attnviz.lessons.training_race import model as race_model

CFG = race_config.Config(task="copy", L=2, steps=10, seed=1)


def test_non_finite_activations_are_the_model_s_divergence():
    model = race_model.SeqModel(CFG, "post", "cpu")
    with torch.no_grad():
        model.E.fill_(math.nan)
    with pytest.raises(Diverged):
        model(torch.zeros(2, CFG.n, dtype=torch.long))


def test_a_diverged_model_reports_nan_and_the_other_races_on():
    models: dict = {}
    steps = training.race(CFG, models, device="cpu")
    first = next(steps)
    assert math.isfinite(first.loss["post"])
    with torch.no_grad():
        models["post"].E.fill_(math.nan)
    rest = list(steps)
    assert all(math.isnan(r.loss["post"]) for r in rest)
    assert all(math.isfinite(r.loss["pre"]) for r in rest)


def test_another_value_error_in_a_race_is_no_divergence():
    models: dict = {}
    steps = training.race(CFG, models, device="cpu")
    next(steps)

    def broken(*args, **kwargs):
        raise ValueError("a bug, not a divergence")

    models["post"].stack.forward = broken
    with pytest.raises(ValueError, match="a bug"):
        list(steps)
