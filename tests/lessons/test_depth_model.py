"""One seed's gradients: the shortcuts against a plain backward through PyTorch's own
LayerNorm, the Xavier-uniform bounds, the depth cap."""

import numpy as np
import pytest
import torch

from attnviz.block import TransformerStack
from attnviz.lessons import depth_model


@pytest.mark.parametrize("norm", depth_model.NORMS)
def test_one_pass_for_every_depth_equals_separate_stacks(norm):
    """The trend's shortcut (one forward, one small gradient per depth) against a full
    backward through a separately built stack of each depth, with PyTorch's own LayerNorm."""
    depths = (1, 3, 5)
    fast = depth_model.last_layer_gradients(32, 0, depths)[norm]
    for L, got in zip(depths, fast, strict=True):
        stack = depth_model._stack(L, 32, 0).requires_grad_(True)
        X, r = depth_model._inputs(32, 0, "unit")
        for block in stack.blocks:
            block.norm = norm
        x = X
        for block in stack.blocks:
            x, _ = block(x)
        out = torch.nn.functional.layer_norm(x, (32,)) if norm == "pre" else x
        (out @ r).mean().backward()
        assert got == pytest.approx(stack.blocks[-1].ffn.W_2.grad.norm().item(), rel=1e-5)


@pytest.mark.parametrize("norm", depth_model.NORMS)
def test_per_layer_gradients_equal_a_plain_backward(norm):
    """Every layer's norms, each gradient dropped as it lands, against ``.grad`` after one
    ordinary backward through every parameter of a separately built stack."""
    got = depth_model.layer_gradients(4, 32, 1, "sqrt_d")[norm]
    stack = depth_model._stack(4, 32, 1).requires_grad_(True)
    X, r = depth_model._inputs(32, 1, "sqrt_d")
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
    assert set(got) == set(depth_model.PARAMS)
    for name, grads in want.items():
        np.testing.assert_allclose(got[name], [g.norm().item() for g in grads], rtol=1e-5)


def test_xavier_uniform_bounds():
    stack = TransformerStack(1, 64, 4, 256, device="cpu")
    depth_model.xavier_(stack.blocks)
    f, a = stack.blocks[0].ffn, stack.blocks[0].attn
    assert f.W_1.std().item() == pytest.approx(np.sqrt(2 / (64 + 256)), rel=0.05)
    assert a.W_Q.std().item() == pytest.approx(np.sqrt(2 / (64 + 64)), rel=0.05)
    assert f.W_1.abs().max().item() <= np.sqrt(6 / (64 + 256))
    assert f.b_1.abs().max().item() == 0


def test_rejects_out_of_range_depth():
    with pytest.raises(ValueError, match="layers"):
        depth_model.layer_gradients(25, 64, 0)
