"""Training race: post-LN without warm-up at a high rate stalls where pre-LN learns; determinism."""

import math

import numpy as np
import pytest
import torch

from attnviz import formulas
from attnviz.lessons import training_race as training


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_post_ln_stalls_where_pre_ln_learns(seed):
    cfg = training.Config(task="reverse", L=6, lr=1e-2, warmup=False, steps=120, seed=seed)
    result = training.summary(training.run(cfg).records)
    post_loss, post_acc = result["post"]
    pre_loss, pre_acc = result["pre"]
    assert pre_acc > 0.9 and pre_loss < 0.5
    assert math.isnan(post_loss) or (post_loss > 1.5 and post_acc < 0.5)


@pytest.mark.parametrize("seed", [0, 1])
def test_warm_up_lets_post_ln_learn(seed):
    cfg = training.Config(task="reverse", L=6, lr=1e-2, warmup=True, steps=120, seed=seed)
    post_loss, post_acc = training.summary(training.run(cfg).records)["post"]
    assert post_acc > 0.9 and post_loss < 0.5


def test_same_seed_same_numbers_and_learned_positions():
    cfg = training.Config(task="sort", L=2, lr=3e-3, steps=15, seed=7)
    a, b = training.run(cfg), training.run(cfg)
    assert [r.loss for r in a.records] == [r.loss for r in b.records]
    assert a.positions.cfg == cfg
    for norm in training.NORMS:
        assert a.positions.tables[norm].shape == (cfg.n, cfg.D)
        np.testing.assert_array_equal(a.positions.tables[norm], b.positions.tables[norm])
    c = training.run(training.Config(task="sort", L=2, lr=3e-3, steps=15, seed=8))
    assert [r.loss for r in a.records] != [r.loss for r in c.records]
    assert a.formulas == [formulas.RACE] == training.FORMULAS


def test_history_has_a_row_per_step_and_norm():
    records = training.run(training.Config(task="copy", L=1, steps=10)).records
    h = training.history(records)
    assert list(h.columns) == ["step", "norm", "loss", "accuracy"] and len(h) == 2 * 10
    post = h[h.norm == "post"]
    np.testing.assert_array_equal(post["step"], np.arange(1, 11))
    np.testing.assert_array_equal(post["loss"], [r.loss["post"] for r in records])
    np.testing.assert_array_equal(h[h.norm == "pre"]["accuracy"], [r.acc["pre"] for r in records])


def test_learned_positions_live_under_one_session_key():
    state = {}
    assert training.learned_positions(state) is None
    kept = training.LearnedPositions(training.Config(), {"post": np.zeros((8, 32))})
    training.keep_positions(state, kept)
    assert training.learned_positions(state) is kept
    assert list(state) == [training.POSITIONS_KEY]


def test_learning_rate_and_time_estimate():
    assert training.learning_rate(-2.5) == 0.00316
    assert training.learning_rate(-2.0) == 0.01
    assert training.Config(L=6, steps=200).seconds == 6
    assert training.Config(L=1, steps=20).seconds == 1


def test_targets():
    cfg = training.Config()
    for task, expect in (
        ("copy", lambda x: x),
        ("reverse", lambda x: x.flip(-1)),
        ("sort", lambda x: x.sort(-1).values),
    ):
        x, y = training.make_batch(task, cfg, torch.Generator().manual_seed(0))
        assert torch.equal(y, expect(x))


@pytest.mark.parametrize("field, value", [("L", 13), ("lr", 1.0), ("steps", 5), ("task", "x")])
def test_caps(field, value):
    with pytest.raises(ValueError):
        training.Config(**{field: value})
