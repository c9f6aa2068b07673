"""Gradient norms by depth at initialisation: the Xiong et al. (2020) trend, at a small size."""

import numpy as np
import pytest
import torch

from attnviz import formulas
from attnviz.block import TransformerStack
from attnviz.lessons import depth_gradients as depth


@pytest.fixture(scope="module")
def trend():
    stats = depth.spread(depth.last_layer_trend(64, 2, depths=(2, 12)), "L", "W_2")
    return {n: part.set_index("L")["mean"] for n, part in stats.groupby("norm")}


def test_pre_ln_last_layer_gradient_shrinks_with_depth(trend):
    ratio = trend["pre"][12] / trend["pre"][2]
    assert ratio < 0.75
    assert ratio > 0.5 * np.sqrt(2 / 12)  # about 1/√L, not a collapse


def test_post_ln_last_layer_gradient_does_not_shrink(trend):
    assert trend["post"][12] / trend["post"][2] > 0.95
    assert trend["post"][12] > 2 * trend["pre"][12]


def test_per_layer_run_tables_and_progress():
    seen = []
    r = depth.run(depth.Config(L=3, D=16, seeds=2), seen.append)
    assert sorted(r.table.columns) == sorted(["norm", "seed", "layer", *depth.PARAMS])
    assert len(r.table) == 2 * 2 * 3 and (r.table[list(depth.PARAMS)] > 0).all().all()
    assert seen == pytest.approx([0.25, 0.5, 0.75, 1.0])
    for p in depth.PARAMS:
        s = r.spread[p]
        assert list(s.columns) == ["norm", "layer", "mean", "std"] and len(s) == 2 * 3
        first = r.table[(r.table.norm == "pre") & (r.table.layer == 1)][p]
        got = s[(s.norm == "pre") & (s.layer == 1)]
        assert got["mean"].item() == pytest.approx(first.mean())
        assert got["std"].item() == pytest.approx(first.std())


def test_trend_reference_is_one_over_sqrt_L_through_pre_ln_and_ratios_follow_the_means():
    seen = []
    t = depth.trend(depth.TrendConfig(D=16, seeds=1), seen.append)
    assert seen[-1] == 1.0 and seen == sorted(seen)
    pre = t.spread[t.spread.norm == "pre"].set_index("L")["mean"]
    post = t.spread[t.spread.norm == "post"].set_index("L")["mean"]
    Ls, ref = t.reference
    np.testing.assert_array_equal(Ls, depth.TREND_DEPTHS)
    np.testing.assert_allclose(ref, pre[1] / np.sqrt(Ls))
    lo, hi = depth.RATIO_DEPTHS
    assert t.ratios["pre"] == pytest.approx(pre[hi] / pre[lo])
    assert t.ratios["post"] == pytest.approx(post[hi] / post[lo])
    assert t.ratios["ref"] == pytest.approx(np.sqrt(lo / hi))
    assert t.formulas == [formulas.GRAD_SCALE]


def test_config_checks_and_its_trend_leaves_L_out():
    cfg = depth.Config(L=4, D=64, seeds=2)
    assert cfg.trend == depth.TrendConfig(D=64, seeds=2) == depth.Config(L=9, D=64, seeds=2).trend
    for bad in ({"L": 25}, {"D": 4}, {"seeds": 0}, {"seeds": 11}):
        with pytest.raises(ValueError):
            depth.Config(**bad)


def test_xavier_variance():
    stack = TransformerStack(1, 64, 4, 256, device="cpu")
    depth.xavier_(stack, torch.Generator().manual_seed(0))
    f = stack.blocks[0].ffn
    assert f.W_1.std().item() == pytest.approx(np.sqrt(2 / (64 + 256)), rel=0.05)
    assert stack.blocks[0].attn.W_Q.std().item() == pytest.approx(1 / 8, rel=0.05)
    assert f.b_1.abs().max().item() == 0


def test_rejects_out_of_range_depth():
    with pytest.raises(ValueError, match="layers"):
        depth.layer_gradients("pre", 25, 64, 0)
