"""attend / multi-head attention: against F.scaled_dot_product_attention, and the seed's laws."""

import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from torch.nn import functional as F

import attnviz
from attnviz.attend import attend, scaled_dot_product_attention


@pytest.mark.parametrize("dtype,tol", [(torch.float32, 1e-5), (torch.float64, 1e-10)])
@pytest.mark.parametrize("masking", ["none", "causal", "padding", "random"])
def test_scaled_dot_matches_torch_sdpa(dtype, tol, masking):
    g = torch.Generator().manual_seed(3)
    q, k, v = (torch.randn(2, 3, n, 8, generator=g, dtype=dtype) for n in (5, 5, 5))
    mask = {
        "none": None,
        "causal": attnviz.causal_mask(5),
        "padding": attnviz.padding_mask([5, 3], 5),
        "random": (torch.rand(2, 3, 5, 5, generator=g) > 0.4) | torch.eye(5, dtype=torch.bool),
    }[masking]
    out, w = scaled_dot_product_attention(q, k, v, mask)
    ref = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    torch.testing.assert_close(out, ref, atol=tol, rtol=0)
    if mask is not None:
        assert (w[~mask.expand_as(w)] == 0).all()


def test_fully_masked_row_gets_zero_weights():
    scores = torch.randn(2, 3)
    mask = torch.tensor([[True, False, True], [False, False, False]])
    out, w = attend(scores, torch.randn(3, 4), mask)
    assert torch.equal(w[1], torch.zeros(3)) and torch.equal(out[1], torch.zeros(4))


@settings(max_examples=30, deadline=None)
@given(
    B=st.integers(1, 3),
    N=st.integers(1, 12),
    H=st.sampled_from([1, 2, 4]),
    score=st.sampled_from(sorted(attnviz.SCORES)),
    causal=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_rows_sum_to_one_and_masked_entries_are_zero(B, N, H, score, causal, seed):
    D = 4 * H
    mha = attnviz.MultiHeadAttention(D, H, score=score, seed=seed, device="cpu")
    x = torch.randn(B, N, D, generator=torch.Generator().manual_seed(seed))
    mask = attnviz.causal_mask(N) if causal else None
    out, trace = mha(x, mask=mask)
    assert out.shape == (B, N, D)
    assert trace.weights.shape == trace.scores.shape == (B, H, N, N)
    torch.testing.assert_close(trace.weights.sum(-1), torch.ones(B, H, N))
    if causal:
        assert (trace.weights[..., ~mask] == 0).all()


def test_trace_names_every_intermediate_and_heads_are_not_averaged():
    mha = attnviz.MultiHeadAttention(12, 3, d_head=5, seed=0, device="cpu")
    x = torch.randn(4, 12)
    out, t = mha(x)
    assert t.q.shape == t.k.shape == t.v.shape == t.head_out.shape == (1, 3, 4, 5)
    assert t.concat.shape == (1, 4, 15) and out.shape == (4, 12)
    # head_h = softmax(Q_h K_hᵀ / √D') V_h, with D' = d_head (S12), not D
    expected = torch.softmax(t.q @ t.k.transpose(-1, -2) / math.sqrt(5), -1) @ t.v
    torch.testing.assert_close(t.head_out, expected)
    assert not torch.allclose(t.weights[0, 0], t.weights[0, 1])


def test_same_seed_same_numbers_other_seed_other_numbers():
    x = torch.randn(6, 16)
    a = attnviz.MultiHeadAttention(16, 4, seed=7, device="cpu")(x)[0]
    b = attnviz.MultiHeadAttention(16, 4, seed=7, device="cpu")(x)[0]
    c = attnviz.MultiHeadAttention(16, 4, seed=8, device="cpu")(x)[0]
    assert torch.equal(a, b) and not torch.allclose(a, c)


def test_float64_and_device_auto():
    mha = attnviz.MultiHeadAttention(8, 2, dtype="float64")
    out, t = mha(torch.randn(3, 8, dtype=torch.float64))
    assert out.dtype == torch.float64 and t.weights.dtype == torch.float64
    assert out.device.type == attnviz.resolve_device("auto").type


def test_device_env_override(monkeypatch):
    monkeypatch.setenv("ATTNVIZ_DEVICE", "cpu")
    assert attnviz.resolve_device("auto") == torch.device("cpu")
    monkeypatch.setenv("ATTNVIZ_DEVICE", "bogus")
    with pytest.raises(ValueError, match="device"):
        attnviz.resolve_device("auto")


def test_many_small_kernels_mean_the_cpu_unless_a_device_is_named(monkeypatch):
    monkeypatch.delenv("ATTNVIZ_DEVICE", raising=False)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert attnviz.resolve_device("auto") == torch.device("cuda")
    assert attnviz.resolve_device("auto", many_small_kernels=True) == torch.device("cpu")
    assert attnviz.resolve_device("meta", many_small_kernels=True) == torch.device("meta")
    monkeypatch.setenv("ATTNVIZ_DEVICE", "cuda")  # a named device is honoured
    assert attnviz.resolve_device("auto", many_small_kernels=True) == torch.device("cuda")


def test_same_seed_gives_the_pinned_parameters():
    """A refactor of the initialisation must not move a number: first three and last entries."""
    mha = attnviz.MultiHeadAttention(16, 4, seed=7, device="cpu")
    pinned = {  # float32 values, written with as many digits as float32 needs
        "W_Q": [0.01746127, -0.1505984, 0.07960585, 0.14166096],
        "W_K": [0.06787911, 0.15671793, -0.1449, -0.21241575],
        "W_O": [0.08489531, -0.1221697, -0.06981683, 0.19785947],
    }
    for name, values in pinned.items():
        W = getattr(mha, name).detach().flatten()
        assert torch.equal(W[[0, 1, 2, -1]], torch.tensor(values)), name
    mlp = attnviz.MultiHeadAttention(
        16, 4, score="mlp", mlp_hidden=5, seed=3, dtype="float64", device="cpu"
    )
    w_2 = mlp.score.w_2.detach().flatten()[:3]  # float64 draws of the MLP score
    expected = [0.010635722360862064, -0.1324439745189473, -0.8228653768146625]
    assert torch.equal(w_2, torch.tensor(expected, dtype=torch.float64))


def test_score_options_reach_the_score():
    mha = attnviz.MultiHeadAttention(16, 4, score="mlp", mlp_hidden=5, device="cpu")
    assert mha.score.W_1z.shape == (4, 4, 5)  # (H, D', mlp_hidden)
    mha = attnviz.MultiHeadAttention(16, 4, score="query_only", n_max=7, device="cpu")
    assert mha.score.W.shape == (4, 7, 4)  # (H, n_max, D')


@pytest.mark.parametrize("option", ["hiddn", "hidden", "n_mx", "scor"])
def test_misspelt_option_raises(option):
    """Unknown keywords are errors, never silently dropped; the MLP width is ``mlp_hidden``."""
    with pytest.raises(TypeError, match=option):
        attnviz.MultiHeadAttention(64, 8, **{option: 3})
