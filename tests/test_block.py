"""Transformer blocks (S13, S14) and permutation equivariance (S7, S15, S16)."""

from operator import attrgetter

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import attnviz
from attnviz.norms import NORMS

from .oracles import ffn, gelu, layer_norm, multi_head_attention, nontrivial_


def test_post_ln_is_the_chapters_formula():
    """S13: Q' = LN(Q + Q̃); out = LN(ReLU(Q'W_1 + 1b_1ᵀ)W_2 + 1b_2ᵀ + Q')."""
    block = attnviz.TransformerBlock(16, 4, 32, norm="post", seed=0, device="cpu", dtype="float64")
    x = torch.randn(5, 16, dtype=torch.float64)
    out, t = block(x)
    Qt, _ = block.attn(x)

    def ln(v, ln_mod):
        return torch.nn.functional.layer_norm(v, (16,), ln_mod.gamma, ln_mod.beta, ln_mod.eps)

    Qp = ln(x + Qt, block.ln_1)
    f = block.ffn
    expected = ln(torch.relu(Qp @ f.W_1 + f.b_1) @ f.W_2 + f.b_2 + Qp, block.ln_2)
    torch.testing.assert_close(out, expected)
    torch.testing.assert_close(t.resid_mid[0], Qp)


def test_pre_ln_is_xiong_et_als_formula():
    """S14: h = X + MHA(LN₁(X)); out = h + FFN(LN₂(h)), FFN = GELU(x W_1 + b_1) W_2 + b_2,
    written out in float64 with PyTorch's layer_norm and a hand-written MHA and GELU."""
    block = attnviz.TransformerBlock(
        16, 2, 24, norm="pre", activation="gelu", seed=1, device="cpu", dtype="float64"
    )
    nontrivial_(block, seed=1)
    x = torch.randn(7, 16, generator=torch.Generator().manual_seed(1), dtype=torch.float64) * 3 + 1
    out, t = block(x)
    with torch.no_grad():
        h = x + multi_head_attention(block.attn, layer_norm(x, block.ln_1))
        ffn_out, _ = ffn(block.ffn, layer_norm(h, block.ln_2), act=gelu)
    torch.testing.assert_close(t.resid_mid[0], h)
    torch.testing.assert_close(out, h + ffn_out)


def test_no_ln_block_is_two_plain_residual_sums():
    """norm="none": h = X + MHA(X); out = h + ReLU(h W_1 + b_1) W_2 + b_2, in float64 from
    the block's own parameters."""
    block = attnviz.TransformerBlock(16, 4, 32, norm="none", seed=3, device="cpu", dtype="float64")
    nontrivial_(block, seed=3)
    x = torch.randn(6, 16, generator=torch.Generator().manual_seed(3), dtype=torch.float64)
    out, t = block(x)
    with torch.no_grad():
        h = x + multi_head_attention(block.attn, x)
        ffn_out, hidden = ffn(block.ffn, h)
    torch.testing.assert_close(t.resid_mid[0], h)
    torch.testing.assert_close(t.ffn_hidden[0], hidden)
    torch.testing.assert_close(t.sum_2[0], h + ffn_out)
    torch.testing.assert_close(out, h + ffn_out)
    assert t.ln_1_hat is None and t.ln_2_hat is None


@pytest.mark.parametrize("norm", ["post", "pre"])
def test_ln_normalises_each_token_to_mean_0_variance_1(norm):
    """Per token, before γ and β: (x − μ) / √(σ² + ε) has mean 0 and variance σ²/(σ² + ε) ≈ 1."""
    block = attnviz.TransformerBlock(16, 2, norm=norm, activation="gelu", seed=1, device="cpu")
    x = torch.randn(2, 7, 16) * 3 + 1
    _, t = block(x)
    for hat in (t.ln_1_hat, t.ln_2_hat):
        torch.testing.assert_close(hat.mean(-1), torch.zeros(2, 7), atol=1e-5, rtol=0)
        torch.testing.assert_close(hat.var(-1, unbiased=False), torch.ones(2, 7), atol=1e-3, rtol=0)


def test_same_seed_gives_the_pinned_parameters():
    """Attention from ``seed``, the FFN from ``seed + 1``, block ℓ of a stack from seed + 1000·ℓ."""
    block = attnviz.TransformerBlock(16, 4, 32, norm="pre", seed=2, device="cpu")
    stack = attnviz.TransformerStack(2, 8, 2, score="query_only", n_max=6, seed=1, device="cpu")
    pinned = {  # float32 values, written with as many digits as float32 needs
        (block, "attn.W_Q"): [0.057347536, -0.05949357, 0.06855717, 0.14072204],
        (block, "ffn.W_1"): [-0.24786824, -0.19721532, -0.10707876, 0.025420368],
        (block, "ffn.b_2"): [0.14293487, -0.13231339, -0.0022285988, 0.12691891],
        (stack, "blocks.1.attn.W_Q"): [-0.073936485, -0.24087189, 0.25192338, -0.143878],
        (stack, "blocks.1.ffn.W_2"): [0.011055055, 0.015467872, -0.11683361, -0.10021589],
        (stack, "blocks.0.attn.score.W"): [-0.62800705, 0.4477775, 0.083738685, 0.25630373],
    }
    for (module, name), values in pinned.items():
        W = attrgetter(name)(module).detach().flatten()  # W_Q: a view of the fused W_QKV
        assert torch.equal(W[[0, 1, 2, -1]], torch.tensor(values)), name


@pytest.mark.parametrize(
    "build",
    [
        lambda **o: attnviz.TransformerBlock(64, 4, **o),
        lambda **o: attnviz.TransformerStack(2, 64, 4, **o),
    ],
    ids=["block", "stack"],
)
@pytest.mark.parametrize("option", ["actvation", "hidden", "hiden", "final_nrom", "n_mx"])
def test_misspelt_option_raises(build, option):
    """Unknown keywords are errors, never silently dropped; the MLP width is ``mlp_hidden``."""
    with pytest.raises(TypeError, match=option):
        build(**{option: "gelu"})


def test_block_options_reach_every_layer():
    stack = attnviz.TransformerStack(
        2, 16, 4, score="mlp", mlp_hidden=3, d_head=2, eps=1e-3, activation="gelu", device="cpu"
    )
    for block in stack.blocks:
        assert block.attn.score.W_1z.shape == (4, 2, 3)  # (H, D', mlp_hidden)
        assert block.activation == "gelu" and block.ln_2.eps == 1e-3


def test_stack_returns_one_trace_per_layer():
    stack = attnviz.TransformerStack(3, 8, 2, norm="pre", final_norm=True, device="cpu")
    out, traces = stack(torch.randn(4, 8))
    assert out.shape == (4, 8) and len(traces) == 3
    assert not torch.equal(stack.blocks[0].attn.W_Q, stack.blocks[1].attn.W_Q)


def _equivariance_error(pe_kind, norm, N, seed, mode="add"):
    D, H = 16, 4
    g = torch.Generator().manual_seed(seed)
    X = torch.randn(N, D, generator=g)
    perm = torch.randperm(N, generator=g)
    enc = attnviz.PositionalEncoding(D, pe_kind, mode, seed=seed)
    block = attnviz.TransformerBlock(enc.out_dim, H, norm=norm, seed=seed, device="cpu")
    f_X = block(enc(X))[0]
    f_PX = block(enc(X[perm]))[0]
    return (f_PX - f_X[perm]).abs().max().item(), perm


@settings(max_examples=25, deadline=None)
@given(N=st.integers(2, 16), seed=st.integers(0, 2**16), norm=st.sampled_from(list(NORMS)))
def test_block_without_positions_is_permutation_equivariant(N, seed, norm):
    """S7: f(PX) = P f(X) for any permutation P."""
    err, _ = _equivariance_error("none", norm, N, seed)
    assert err < 1e-5


@pytest.mark.parametrize("kind", ["sinusoidal", "learned"])
@pytest.mark.parametrize("mode", ["add", "concat"])
def test_positions_break_equivariance(kind, mode):
    """S15, S16: with positions added or concatenated the block sees order."""
    err, perm = _equivariance_error(kind, "post", 8, seed=5, mode=mode)
    assert not torch.equal(perm, torch.arange(8))
    assert err > 1e-2
