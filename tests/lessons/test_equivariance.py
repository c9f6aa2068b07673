"""The equivariance lesson against S7/S16: f(PX) = P f(X) without positions, not with them."""

import numpy as np
import pytest

from attnviz.lessons import equivariance

TEXT = "the dog bit the man because the man was loud"
N = 10


def perm(kind="reverse", **kw):
    return tuple(int(k) for k in equivariance.permutation(kind, N, **kw))


@pytest.mark.parametrize("norm", ["post", "pre", "none"])
@pytest.mark.parametrize("kind", ["reverse", "shuffle"])
def test_equivariant_without_positions(norm, kind):
    r = equivariance.run(TEXT, perm(kind, seed=5), 32, 4, "none", "add", norm, 0)
    assert r.error < 1e-5 and r.attn_error < 1e-6
    np.testing.assert_allclose(r.A_P, r.PAPt, atol=1e-6)


@pytest.mark.parametrize("pe", ["sinusoidal", "learned"])
@pytest.mark.parametrize("mode", ["add", "concat"])
def test_positions_break_equivariance(pe, mode):
    r = equivariance.run(TEXT, perm(), 32, 4, pe, mode, "post", 0)
    assert r.error > 1e-2 and r.attn_error > 1e-3
    assert r.diff.shape == (N, 64 if mode == "concat" else 32)


def test_difference_is_computed_against_an_independent_permutation():
    """f(PX) from the reordered sentence itself, and P as a matrix, agree with the lesson."""
    p = perm("shuffle", seed=1)
    args = (16, 2, "sinusoidal", "add", "pre", 3)
    r = equivariance.run(TEXT, p, *args)
    words = TEXT.split()
    reordered = equivariance.run(" ".join(words[k] for k in p), tuple(range(N)), *args)
    P = np.eye(N, dtype=np.float32)[list(p)]
    np.testing.assert_allclose(r.PAPt, np.einsum("ij,hjk,lk->hil", P, r.A, P), atol=1e-7)
    np.testing.assert_allclose(r.diff, reordered.out - P @ r.out, atol=1e-5)
    np.testing.assert_allclose(r.A_P, reordered.A, atol=1e-6)


def test_permutations():
    assert perm() == tuple(range(N - 1, -1, -1))
    assert perm("swap", i=1, j=4) == (0, 4, 2, 3, 1, 5, 6, 7, 8, 9)
    assert perm("shuffle", seed=2) == perm("shuffle", seed=2)
    assert sorted(perm("shuffle", seed=2)) == list(range(N))
    assert perm("typed", typed="9, 8,7,6,5,4,3,2,1,0") == perm()
    for bad in ("", "1,2", "0,0,1,2,3,4,5,6,7,8", "a,b", "0,1,2,3,4,5,6,7,8,10"):
        with pytest.raises(ValueError, match="order"):
            equivariance.permutation("typed", N, typed=bad)
    with pytest.raises(ValueError, match="permutation"):
        equivariance.permutation("rotate", N)


def test_long_text_is_cut_and_bad_perm_rejected():
    tokens, cut = equivariance.tokens_of("a " * 100)
    assert cut and len(tokens) == equivariance.MAX_TOKENS
    with pytest.raises(ValueError, match="permutation"):
        equivariance.run(TEXT, (0, 1), 32, 4, "none", "add", "post", 0)
