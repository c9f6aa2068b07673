"""Gradient norms by depth at initialisation: the Xiong et al. (2020) trends, at a small size."""

import numpy as np
import pytest
import torch

from attnviz import formulas
from attnviz.block import TransformerStack
from attnviz.lessons import depth_gradients as depth


def means(table, by: str, value: str = "W_2") -> dict:
    stats = depth.spread(table, by, value)
    return {n: part.set_index(by)["mean"] for n, part in stats.groupby("norm")}


@pytest.fixture(scope="module")
def trend():
    return means(depth.last_layer_trend(64, 2), "L")


def test_pre_ln_last_layer_gradient_shrinks_like_one_over_sqrt_L(trend):
    ratio = trend["pre"][24] / trend["pre"][3]
    assert 0.6 * np.sqrt(3 / 24) < ratio < 1.4 * np.sqrt(3 / 24)


def test_post_ln_last_layer_gradient_does_not_shrink(trend):
    assert trend["post"][24] / trend["post"][3] > 0.95
    assert trend["post"][24] > 2 * trend["pre"][24]


@pytest.mark.parametrize("norm", depth.NORMS)
def test_one_pass_for_every_depth_equals_separate_stacks(norm):
    """The trend's shortcut (one forward, one small gradient per depth) against a full
    backward through a separately built stack of each depth, with PyTorch's own LayerNorm."""
    depths = (1, 3, 5)
    fast = depth.last_layer_gradients(32, 0, depths)[norm]
    for L, got in zip(depths, fast, strict=True):
        stack, (X, r) = depth._stack(L, 32, 0).requires_grad_(True), depth._inputs(32, 0, "unit")
        for block in stack.blocks:
            block.norm = norm
        x = X
        for block in stack.blocks:
            x, _ = block(x)
        out = torch.nn.functional.layer_norm(x, (32,)) if norm == "pre" else x
        (out @ r).mean().backward()
        assert got == pytest.approx(stack.blocks[-1].ffn.W_2.grad.norm().item(), rel=1e-5)


@pytest.mark.parametrize("norm", depth.NORMS)
def test_per_layer_gradients_equal_a_plain_backward(norm):
    """Every layer's norms, each gradient dropped as it lands, against ``.grad`` after one
    ordinary backward through every parameter of a separately built stack."""
    got = depth.layer_gradients(4, 32, 1, "sqrt_d")[norm]
    stack, (X, r) = depth._stack(4, 32, 1).requires_grad_(True), depth._inputs(32, 1, "sqrt_d")
    x = X
    for block in stack.blocks:
        block.norm = norm
        x, _ = block(x)
    out = torch.nn.functional.layer_norm(x, (32,)) if norm == "pre" else x
    (out @ r).mean().backward()
    b = stack.blocks
    want = {
        "W_2": [k.ffn.W_2.grad for k in b],
        "W_1": [k.ffn.W_1.grad for k in b],
        "W_O": [k.attn.W_O.grad for k in b],
        "W_V": [k.attn.W_QKV.grad[:, 2] for k in b],  # W_V's part of the fused (D, 3, H, D′)
    }
    assert set(got) == set(depth.PARAMS)
    for name, grads in want.items():
        np.testing.assert_allclose(got[name], [g.norm().item() for g in grads], rtol=1e-5)


def test_per_layer_shapes_depend_on_the_input_scale():
    """Unit inputs: pre-LN's gradient falls from layer 1 to L (the Jacobians of the blocks
    above add up); inputs √D larger: every layer gets the same (Xiong et al., Fig. 3)."""
    unit = depth.run(depth.Config(L=8, D=64, seeds=2, x_scale="unit"))
    big = depth.run(depth.Config(L=8, D=64, seeds=2, x_scale="sqrt_d"))
    assert unit.last_over_first["pre"] < 0.6
    assert 0.85 < big.last_over_first["pre"] < 1.15
    pre = means(unit.table, "layer")["pre"]
    assert unit.last_over_first["pre"] == pytest.approx(pre[8] / pre[1])


def test_per_layer_run_tables_and_progress():
    seen = []
    r = depth.run(depth.Config(L=3, D=16, seeds=2), seen.append)
    assert sorted(r.table.columns) == sorted(["norm", "seed", "layer", *depth.PARAMS])
    assert len(r.table) == 2 * 2 * 3 and (r.table[list(depth.PARAMS)] > 0).all().all()
    assert seen == pytest.approx([0.5, 1.0])
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
    assert "W_2^{(L)}" in formulas.GRAD_SCALE and "W_2^{(\\ell)}" not in formulas.GRAD_SCALE


def test_config_checks_caps_seeds_and_its_trend_leaves_L_out():
    cfg = depth.Config(L=4, D=64, seeds=2)
    assert cfg.trend == depth.TrendConfig(D=64, seeds=2) == depth.Config(L=9, D=64, seeds=2).trend
    assert depth.Config(L=24, D=512, seeds=5).seeds_used == 1
    assert depth.Config(L=24, D=128, seeds=5).seeds_used == 5
    for bad in ({"L": 25}, {"D": 4}, {"seeds": 0}, {"seeds": 11}, {"x_scale": "big"}):
        with pytest.raises(ValueError):
            depth.Config(**bad)


def test_xavier_uniform_bounds():
    stack = TransformerStack(1, 64, 4, 256, device="cpu")
    depth.xavier_(stack.blocks)
    f, a = stack.blocks[0].ffn, stack.blocks[0].attn
    assert f.W_1.std().item() == pytest.approx(np.sqrt(2 / (64 + 256)), rel=0.05)
    assert a.W_Q.std().item() == pytest.approx(np.sqrt(2 / (64 + 64)), rel=0.05)
    assert f.W_1.abs().max().item() <= np.sqrt(6 / (64 + 256))
    assert f.b_1.abs().max().item() == 0


def test_rejects_out_of_range_depth():
    with pytest.raises(ValueError, match="layers"):
        depth.layer_gradients(25, 64, 0)
