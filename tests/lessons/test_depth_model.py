"""One seed's gradients: the shortcuts against a plain backward through PyTorch's own
LayerNorm and a loss written out by hand, the Xavier-uniform bounds, the depth cap."""

import numpy as np
import pytest
import torch

from attnviz.lessons import depth_model
from attnviz.stack import TransformerStack


def by_hand(lossf, out: torch.Tensor) -> torch.Tensor:
    """The loss written out: −log softmax at the target, as log Σ exp − the target's logit,
    averaged over tokens; or the mean of o_i · r."""
    if isinstance(lossf, depth_model.CrossEntropy):
        logits = out @ lossf.W_out  # (B, N, V)
        picked = logits.gather(-1, lossf.y.unsqueeze(-1)).squeeze(-1)  # (B, N)
        return (torch.logsumexp(logits, dim=-1) - picked).mean()
    return (out * lossf.r).sum(-1).mean()


@pytest.mark.parametrize("loss", depth_model.LOSSES)
@pytest.mark.parametrize("norm", depth_model.NORMS)
def test_one_pass_for_every_depth_equals_separate_stacks(norm, loss):
    """The trend's shortcut (one forward, one small gradient per depth) against a full
    backward through a separately built stack of each depth, with PyTorch's own LayerNorm."""
    depths = (1, 3, 5)
    fast = depth_model.last_layer_gradients(32, 0, depths, loss=loss)[norm]
    for L, got in zip(depths, fast, strict=True):
        stack = depth_model._stack(L, 32, 0).requires_grad_(True)
        X, lossf = depth_model._inputs(32, 0, "unit", loss)
        for block in stack.blocks:
            block.norm = norm
        x = X
        for block in stack.blocks:
            x, _ = block(x)
        out = torch.nn.functional.layer_norm(x, (32,)) if norm == "pre" else x
        by_hand(lossf, out).backward()
        assert got == pytest.approx(stack.blocks[-1].ffn.W_2.grad.norm().item(), rel=1e-5)


@pytest.mark.parametrize("loss", depth_model.LOSSES)
@pytest.mark.parametrize("norm", depth_model.NORMS)
def test_per_layer_gradients_equal_a_plain_backward(norm, loss):
    """Every layer's norms, each gradient dropped as it lands, against ``.grad`` after one
    ordinary backward through every parameter of a separately built stack."""
    got = depth_model.layer_gradients(4, 32, 1, "sqrt_d", loss)[norm]
    stack = depth_model._stack(4, 32, 1).requires_grad_(True)
    X, lossf = depth_model._inputs(32, 1, "sqrt_d", loss)
    x = X
    for block in stack.blocks:
        block.norm = norm
        x, _ = block(x)
    out = torch.nn.functional.layer_norm(x, (32,)) if norm == "pre" else x
    by_hand(lossf, out).backward()
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


def test_every_matrix_is_xavier_uniform_and_every_bias_zero():
    """Xavier-uniform, U(−a, a) with a = √(6 / (fan_in + fan_out)) and std a/√3, for all six
    matrices; the fans are torch.nn.init's for the same map as an nn.Linear weight
    (fan_out, fan_in): W_Q, W_K, W_V map D → H·D′, W_O H·D′ → D, W_1 D → D_ff, W_2 D_ff → D.
    H·D′ = 32 ≠ D = 64, so a fan of D where H·D′ belongs shows."""
    D, H, d_head, d_ff = 64, 4, 8, 256
    stack = TransformerStack(1, D, H, d_ff, d_head=d_head, device="cpu")
    depth_model.xavier_(stack.blocks)
    a, f = stack.blocks[0].attn, stack.blocks[0].ffn
    maps = {  # name: (the matrix, its in and out widths)
        "W_Q": (a.W_Q, D, H * d_head),
        "W_K": (a.W_K, D, H * d_head),
        "W_V": (a.W_V, D, H * d_head),
        "W_O": (a.W_O, H * d_head, D),
        "W_1": (f.W_1, D, d_ff),
        "W_2": (f.W_2, d_ff, D),
    }
    for name, (W, d_in, d_out) in maps.items():
        fan_in, fan_out = torch.nn.init._calculate_fan_in_and_fan_out(torch.empty(d_out, d_in))
        bound = np.sqrt(6 / (fan_in + fan_out))
        assert W.numel() == fan_in * fan_out, name
        top = W.detach().abs().max().item()
        assert 0.99 * bound < top <= bound, name  # the whole range, and no more
        assert W.std().item() == pytest.approx(np.sqrt(2 / (fan_in + fan_out)), rel=0.05), name
    for b in (a.b_Q, a.b_K, a.b_V, a.b_O, f.b_1, f.b_2):
        assert b.abs().max().item() == 0


def test_depth_pass_lengths_equal_a_full_stack_in_each_placement():
    """The lengths measured one block at a time against a separately built depth-5 stack run
    forward whole in each placement (its traces' block outputs): the same weights, the
    same X; post-LN's lengths are √D, as PyTorch's own layer_norm gives any vector."""
    grads, lengths = depth_model.depth_pass(32, 2, (2, 5))
    assert set(lengths) == {"post", "pre", "none"} and set(grads) == set(depth_model.NORMS)
    stack = depth_model._stack(5, 32, 2)
    X, _ = depth_model._inputs(32, 2, "unit")
    for norm, got in lengths.items():
        for block in stack.blocks:
            block.norm = norm
        with torch.no_grad():
            _, traces = stack(X)
        want = [X.norm(dim=-1).flatten()] + [t.resid_post.norm(dim=-1).flatten() for t in traces]
        assert got.shape == (6, 2 * 16)
        np.testing.assert_allclose(got, torch.stack(want).numpy(), rtol=1e-5)
    unit = torch.nn.functional.layer_norm(torch.randn(7, 32), (32,)).norm(dim=-1)
    np.testing.assert_allclose(lengths["post"][1:], unit.mean().item(), rtol=1e-4)
    fast = depth_model.last_layer_gradients(32, 2, (2, 5))
    for norm in depth_model.NORMS:
        np.testing.assert_array_equal(grads[norm], fast[norm])


def test_rejects_out_of_range_depth():
    with pytest.raises(ValueError, match="layers"):
        depth_model.layer_gradients(25, 64, 0)


def test_the_cross_entropy_reads_a_vocabulary_through_a_projection_with_random_targets():
    """V = 1000 words, W_out (D, V) with N(0, 1/D) entries, one target word per token; the
    targets spread over the vocabulary; the option draws the old read-out r ~ N(0, I/D), the
    same X either way (the loss is drawn after it)."""
    X, xent = depth_model._inputs(64, 0, "unit", "xent")
    X2, direction = depth_model._inputs(64, 0, "unit", "direction")
    torch.testing.assert_close(X, X2)
    assert xent.W_out.shape == (64, depth_model.V) and depth_model.V == 1000
    assert xent.W_out.std().item() == pytest.approx(1 / 8, rel=0.02)
    assert xent.y.shape == (depth_model.B, depth_model.N) and xent.y.unique().numel() > 25
    assert xent.y.min() >= 0 and xent.y.max() < depth_model.V
    assert direction.r.shape == (64,)
    out = torch.randn(2, 16, 64)
    for lossf in (xent, direction):
        assert lossf(out).item() == pytest.approx(by_hand(lossf, out).item(), rel=1e-5)
    # at initialisation the logits are small, so the cross-entropy is near log V
    ln = torch.nn.functional.layer_norm(out, (64,))
    assert xent(ln).item() == pytest.approx(np.log(depth_model.V), rel=0.15)


def test_rejects_an_unknown_loss():
    with pytest.raises(ValueError, match="loss"):
        depth_model.depth_pass(16, 0, (1,), loss="mse")
