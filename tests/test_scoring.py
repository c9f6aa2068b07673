"""Score functions (S2–S6): each against its formula written out by hand, and the √D law (S3)."""

import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from attnviz.scores import SCORES, make_score


def inputs(N=5, M=3, D=8, seed=0, dtype=torch.float64):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(N, D, generator=g, dtype=dtype), torch.randn(M, D, generator=g, dtype=dtype)


def test_dot_and_scaled_dot_are_the_formulas():
    z, q = inputs()
    dot = make_score("dot", 8)(z, q)
    scaled = make_score("scaled_dot", 8)(z, q)
    for m in range(3):
        for n in range(5):
            assert dot[m, n] == pytest.approx(float(z[n] @ q[m]))
            assert scaled[m, n] == pytest.approx(float(z[n] @ q[m]) / math.sqrt(8))


def test_bilinear_is_z_W_q_over_sqrt_d():
    z, q = inputs()
    s = make_score("bilinear", 8, dtype=torch.float64)
    W = s.W.detach()
    expected = torch.stack([torch.stack([z[n] @ W @ q[m] for n in range(5)]) for m in range(3)])
    torch.testing.assert_close(s(z, q).detach(), expected / math.sqrt(8))


def test_mlp_is_an_mlp_on_the_concatenation():
    z, q = inputs()
    s = make_score("mlp", 8, hidden=6, dtype=torch.float64)
    with torch.no_grad():
        W1 = torch.cat([s.W_1z, s.W_1q])  # acts on [z; q] ∈ ℝ^{2D}
        expected = torch.tensor(
            [
                [float(s.w_2 @ torch.tanh(torch.cat([z[n], q[m]]) @ W1 + s.b_1)) for n in range(5)]
                for m in range(3)
            ],
            dtype=torch.float64,
        )
        torch.testing.assert_close(s(z, q), expected)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**16), N=st.integers(1, 20))
def test_query_only_weights_ignore_the_sources(seed, N):
    s = make_score("query_only", 8, seed=3)
    z1, q = inputs(N=N, seed=seed)
    z2 = torch.randn(N, 8, dtype=torch.float64) * 10
    s = s.double()
    a1, a2 = torch.softmax(s(z1, q), -1), torch.softmax(s(z2, q), -1)
    torch.testing.assert_close(a1, a2)
    torch.testing.assert_close(a1, torch.softmax(q @ s.W[:N].T, -1).detach())


@pytest.mark.parametrize("name", sorted(SCORES))
def test_every_score_is_batched_and_per_head(name):
    z, q = torch.randn(2, 4, 6, 5), torch.randn(2, 4, 3, 5)  # (B, H, N, D'), (B, H, M, D')
    assert make_score(name, 5, heads=4)(z, q).shape == (2, 4, 3, 6)
    assert make_score(name, 5)(z[0, 0], q[0, 0]).shape == (3, 6)


@pytest.mark.parametrize("D", [16, 64, 256])
def test_variance_of_dot_grows_like_D_and_scaling_fixes_it(D):
    """S3: for unit-variance q, z, the engine's scores have Var(r_dot) = Var(qᵀz) = D and
    Var(r_scaled_dot) = Var(qᵀz / √D) = 1 (within 5 %); 40 000 independent (q, z) pairs."""
    g = torch.Generator().manual_seed(D)
    q, z = torch.randn(2, 40_000, 1, D, generator=g, dtype=torch.float64)  # (pairs, M=N=1, D)
    dot = make_score("dot", D)(z, q)[:, 0, 0]  # (pairs,)
    scaled = make_score("scaled_dot", D)(z, q)[:, 0, 0]
    assert dot.var().item() == pytest.approx(D, rel=0.05)
    assert scaled.var().item() == pytest.approx(1.0, rel=0.05)


@pytest.mark.parametrize("option", ["hiden", "mlp_hidden", "n_mx", "head"])
def test_misspelt_option_raises(option):
    """make_score knows ``hidden`` and ``n_max``; any other name is an error, for every score."""
    for name in SCORES:
        with pytest.raises(TypeError, match=option):
            make_score(name, 8, **{option: 3})
    with pytest.raises(TypeError, match=option):
        SCORES["mlp"].module(8, generator=torch.Generator(), **{option: 3})


def test_options_reach_their_score_and_are_checked():
    assert make_score("mlp", 8, hidden=3).W_1z.shape == (8, 3)
    assert make_score("query_only", 8, n_max=5).W.shape == (5, 8)
    with pytest.raises(ValueError, match=r"n_max must be in \[1, 512\]"):
        make_score("query_only", 8, n_max=0)


def test_the_mlp_score_is_bahdanaus_additive_attention():
    """Issue 45, item 5 (S5): with one tanh hidden layer the MLP score is Bahdanau et al.'s
    e_ij = v_aᵀ tanh(W_a s_{i−1} + U_a h_j), with v_a = w_2, W_a = W_1^q, U_a = W_1^z (b_1 = 0
    as drawn). Oracle: Bahdanau's form written with nn.Linear layers holding those blocks."""
    z, q = inputs()
    s = make_score("mlp", 8, hidden=6, dtype=torch.float64)
    W_a = torch.nn.Linear(8, 6, bias=False, dtype=torch.float64)  # on the decoder state
    U_a = torch.nn.Linear(8, 6, bias=False, dtype=torch.float64)  # on the annotations
    v_a = torch.nn.Linear(6, 1, bias=False, dtype=torch.float64)
    with torch.no_grad():
        W_a.weight.copy_(s.W_1q.T)  # (hidden, D): W_1^q in column form
        U_a.weight.copy_(s.W_1z.T)
        v_a.weight.copy_(s.w_2.reshape(1, -1))
        e = v_a(torch.tanh(W_a(q)[:, None, :] + U_a(z)[None, :, :]))[..., 0]  # (M, N)
        assert float(s.b_1.abs().max()) == 0.0
        torch.testing.assert_close(s(z, q), e)
    spec = SCORES["mlp"]
    assert spec.same_as is not None and r"\mathbf{v}_a^\top \tanh" in spec.same_as
    assert r"W_1^q\, \mathbf{q} + W_1^z \mathbf{z}_j" in spec.same_as
    assert spec.same_as_note == "scoring.same_as_mlp"


def test_the_mlp_formulas_are_all_in_column_vectors():
    """Issue 45, item 6: the formula w_2ᵀtanh(W_1[z; q] + b_1) is in column vectors; its
    step-through wrote k_j W_1^z + q_i W_1^q (rows). Both now write W_1^z k_j + W_1^q q_i."""
    spec = SCORES["mlp"]
    assert r"W_1^z \mathbf{z} + W_1^q \mathbf{q}" in spec.formula
    symbol = spec.term_symbol(2, 3, 1)
    assert r"W_1^z \mathbf{k}_{3} + W_1^q \mathbf{q}_{2}" in symbol
    assert r"\mathbf{k}_{3} W_1^z" not in symbol


@pytest.mark.parametrize("chunk", [1, 7, 40, 2**40])
def test_the_mlp_score_in_blocks_equals_it_in_one_piece(chunk):
    g = torch.Generator().manual_seed(3)
    s = make_score("mlp", 8, heads=3, hidden=5, generator=g)
    with torch.no_grad():
        s.b_1.normal_(generator=g)
    z = torch.randn(2, 3, 9, 8, generator=g, requires_grad=True)  # (B, H, N, D′)
    q = torch.randn(2, 3, 6, 8, generator=g, requires_grad=True)  # (B, H, M, D′)
    whole = torch.tanh(  # the (B, H, M, N, hidden) grid at once
        (q @ s.W_1q).unsqueeze(-2) + (z @ s.W_1z).unsqueeze(-3) + s.b_1
    )
    whole = (whole * s.w_2).sum(-1)
    s.chunk = chunk  # 1 and 7: blocks of keys within one query; 40: of queries
    blocks = s(z, q)
    assert torch.equal(blocks, whole)
    wrt = (z, q, s.W_1z, s.W_1q, s.b_1, s.w_2)
    grads = torch.autograd.grad(blocks.sum(), wrt), torch.autograd.grad(whole.sum(), wrt)
    for a, b in zip(*grads, strict=True):
        torch.testing.assert_close(a, b)


PEAK = """
import resource, torch
from attnviz.scores import make_score
s = make_score("mlp", 32, heads=32, hidden=16, generator=torch.Generator().manual_seed(0))
k = torch.randn(32, 512, 32)
with torch.no_grad():
    s(k[:, :8], k[:, :8])
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    s(k, k)
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024)
"""


@pytest.mark.slow  # a fresh interpreter that imports torch
def test_the_mlp_score_of_a_wide_multihead_setting_stays_within_its_blocks():
    """H = 32, N = 512, hidden 16: the whole grid of hidden units is 512 MB in float32; the
    blocks need 4 MB each, beside the (H, N, N) scores' 32 MB."""
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-c", PEAK], capture_output=True, text=True, check=True, timeout=120
    )
    assert int(run.stdout.split()[-1]) < 160 * 2**20
