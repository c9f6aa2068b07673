"""Gradient norms by depth at initialisation: the Xiong et al. (2020) trend, at a small size."""

import numpy as np
import pytest

from attnviz.lessons import depth


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


def test_per_layer_table_shape_and_autograd():
    df = depth.by_layer(3, 16, 1)
    assert sorted(df.columns) == sorted(["norm", "seed", "layer", *depth.PARAMS])
    assert len(df) == 2 * 3 and (df[list(depth.PARAMS)] > 0).all().all()


def test_xavier_variance():
    import torch

    from attnviz.block import TransformerStack

    stack = TransformerStack(1, 64, 4, 256, device="cpu")
    depth.xavier_(stack, torch.Generator().manual_seed(0))
    f = stack.blocks[0].ffn
    assert f.W_1.std().item() == pytest.approx(np.sqrt(2 / (64 + 256)), rel=0.05)
    assert stack.blocks[0].attn.W_Q.std().item() == pytest.approx(1 / 8, rel=0.05)
    assert f.b_1.abs().max().item() == 0


def test_rejects_out_of_range_depth():
    with pytest.raises(ValueError, match="layers"):
        depth.layer_gradients("pre", 25, 64, 0)
