"""Training race: post-LN without warm-up at a high rate stalls where pre-LN learns; determinism."""

import math

import numpy as np
import pytest

from attnviz.lessons import training


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_post_ln_stalls_where_pre_ln_learns(seed):
    cfg = training.RaceConfig(task="reverse", L=6, lr=1e-2, warmup=False, steps=120, seed=seed)
    records, _ = training.run(cfg)
    result = training.summary(records)
    post_loss, post_acc = result["post"]
    pre_loss, pre_acc = result["pre"]
    assert pre_acc > 0.9 and pre_loss < 0.5
    assert math.isnan(post_loss) or (post_loss > 1.5 and post_acc < 0.5)


@pytest.mark.parametrize("seed", [0, 1])
def test_warm_up_lets_post_ln_learn(seed):
    cfg = training.RaceConfig(task="reverse", L=6, lr=1e-2, warmup=True, steps=120, seed=seed)
    post_loss, post_acc = training.summary(training.run(cfg)[0])["post"]
    assert post_acc > 0.9 and post_loss < 0.5


def test_same_seed_same_numbers_and_learned_positions():
    cfg = training.RaceConfig(task="sort", L=2, lr=3e-3, steps=15, seed=7)
    a, pa = training.run(cfg)
    b, pb = training.run(cfg)
    assert [r.loss for r in a] == [r.loss for r in b]
    for norm in training.NORMS:
        assert pa[norm].shape == (cfg.n, cfg.D)
        np.testing.assert_array_equal(pa[norm], pb[norm])
    c, _ = training.run(training.RaceConfig(task="sort", L=2, lr=3e-3, steps=15, seed=8))
    assert [r.loss for r in a] != [r.loss for r in c]


def test_targets():
    cfg = training.RaceConfig()
    import torch

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
        training.RaceConfig(**{field: value})
