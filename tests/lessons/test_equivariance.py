"""The equivariance lesson against S7/S16: f(PX) = P f(X) without positions, not with them."""

import numpy as np
import pytest
import torch

from attnviz.errors import InputError
from attnviz.i18n import t
from attnviz.lessons import equivariance

TEXT = "the dog bit the man because the man was loud"
N = 10


def perm(kind="reverse", **kw):
    return tuple(int(k) for k in equivariance.permutation(kind, N, **kw))


def run(**fields):
    return equivariance.run(equivariance.Config(text=TEXT, **fields))


@pytest.mark.parametrize("norm", ["post", "pre", "none"])
@pytest.mark.parametrize("kind", ["reverse", "shuffle"])
def test_equivariant_without_positions(norm, kind):
    r = run(perm=kind, perm_seed=5, D=32, H=4, norm=norm)
    assert r.error < 1e-5 and r.attn_error < 1e-6 and r.verdict == "holds"
    np.testing.assert_allclose(r.A_P, r.PAPt, atol=1e-6)
    assert tuple(r.perm) == perm(kind, seed=5)


@pytest.mark.parametrize("pe", ["sinusoidal", "learned"])
@pytest.mark.parametrize("mode", ["add", "concat"])
def test_positions_break_equivariance(pe, mode):
    r = run(D=32, H=4, pe=pe, pe_mode=mode)
    assert r.error > 1e-2 and r.attn_error > 1e-3 and r.verdict == "breaks"
    assert r.diff.shape == (N, 64 if mode == "concat" else 32)


def test_difference_is_computed_against_an_independent_permutation():
    """f(PX) from the reordered sentence itself, and P as a matrix, agree with the lesson."""
    p = perm("shuffle", seed=1)
    fields = dict(D=16, H=2, pe="sinusoidal", pe_mode="add", norm="pre", seed=3)
    r = run(perm="shuffle", perm_seed=1, **fields)
    assert tuple(r.perm) == p
    words = TEXT.split()
    identity = ",".join(map(str, range(1, N + 1)))  # typed orders count from 1
    reordered = equivariance.run(
        equivariance.Config(" ".join(words[k] for k in p), perm="typed", order=identity, **fields)
    )
    assert reordered.verdict == "identity" and reordered.notice is None
    P = np.eye(N, dtype=np.float32)[list(p)]
    np.testing.assert_array_equal(r.P, P)
    np.testing.assert_allclose(r.PAPt, np.einsum("ij,hjk,lk->hil", P, r.A, P), atol=1e-7)
    np.testing.assert_allclose(r.diff, reordered.out - P @ r.out, atol=1e-5)
    np.testing.assert_allclose(r.A_P, reordered.A, atol=1e-6)


def test_permutations():
    assert perm() == tuple(range(N - 1, -1, -1))
    assert perm("swap", i=1, j=4) == (0, 4, 2, 3, 1, 5, 6, 7, 8, 9)
    assert perm("shuffle", seed=2) == perm("shuffle", seed=2)
    assert sorted(perm("shuffle", seed=2)) == list(range(N))
    assert perm("typed", typed="10, 9,8,7,6,5,4,3,2,1") == perm()
    for bad in ("", "1,2", "1,1,2,3,4,5,6,7,8,9", "a,b", "0,1,2,3,4,5,6,7,8,9"):
        with pytest.raises(ValueError, match="order"):
            equivariance.permutation("typed", N, typed=bad)
    with pytest.raises(ValueError, match="permutation"):
        equivariance.permutation("rotate", N)


def test_long_text_is_cut():
    tokens, cut = equivariance.tokens_of("a " * 100)
    assert cut and len(tokens) == equivariance.MAX_TOKENS
    r = equivariance.run(equivariance.Config("a " * 100))
    assert r.cut and r.A.shape[-1] == equivariance.MAX_TOKENS
    assert not run().cut


@pytest.mark.parametrize(
    ("order", "notice"), [("", "order_help"), ("4,4,x", "bad_order"), ("1,0", "bad_order")]
)
def test_a_typed_order_that_is_no_permutation_falls_back_to_the_reverse(order, notice):
    r = run(perm="typed", order=order)
    assert r.notice == notice
    assert tuple(r.perm) == perm() and r.verdict == "holds"
    assert run(perm="typed", order="10, 9,8,7,6,5,4,3,2,1").notice is None


def test_a_typed_order_counts_positions_from_1_as_the_page_numbers_them():
    assert tuple(equivariance.permutation("typed", 3, typed="3,1,2")) == (2, 0, 1)
    r = equivariance.run(equivariance.Config("a b c", perm="typed", order="3,1,2"))
    assert r.notice is None and r.perm_tokens == ["c", "a", "b"]


def test_swap_positions_past_the_end_mean_the_last_token():
    r = equivariance.run(equivariance.Config("a b c", perm="swap", i=0, j=47))
    assert r.swapped == (0, 2) and tuple(r.perm) == (2, 1, 0)
    r = equivariance.run(equivariance.Config("a b c", perm="swap", i=47, j=47))
    assert r.swapped == (2, 2) and r.verdict == "identity"
    assert run(perm="reverse").swapped is None


@pytest.mark.parametrize(
    ("fields", "key"),
    [
        (dict(text=""), "no_tokens"),
        (dict(text=TEXT, perm="rotate"), "choice"),
        (dict(text=TEXT, i=48), "range"),
        (dict(text=TEXT, D=1024, pe="sinusoidal", pe_mode="concat"), "width_cap"),
        (dict(text=TEXT, D=24, H=16), "heads_divide"),
    ],
)
def test_config_rejects_bad_input_with_a_translatable_key(fields, key):
    with pytest.raises(InputError) as err:
        equivariance.Config(**fields)
    assert err.value.key == key


def test_H_is_checked_on_the_width_the_block_sees():
    # D = 24 concatenated: the block sees 48 = 16 · 3, so H = 16 is valid
    r = equivariance.run(equivariance.Config(TEXT, D=24, H=16, pe="learned", pe_mode="concat"))
    assert r.A.shape == (16, N, N)
    with pytest.raises(InputError) as err:
        equivariance.Config(TEXT, D=24, H=16, pe="learned", pe_mode="add")
    assert err.value.fields["nearest"] == 12


@pytest.mark.parametrize("pe", ["none", "sinusoidal"])
@pytest.mark.parametrize("mode", ["add", "concat"])
@pytest.mark.parametrize("norm", ["post", "pre", "none"])
def test_formulas_are_those_of_the_positions_and_norm_computed(pe, mode, norm):
    text = " ".join(run(pe=pe, pe_mode=mode, norm=norm, D=8).formulas)
    assert ("\\mathrm{PE}" in text) == (pe != "none")
    assert ("PX + E" in text) == (pe != "none" and mode == "add")
    assert ("[PX;\\ E]" in text) == (pe != "none" and mode == "concat")
    assert ("\\mathrm{LN}" in text) == (norm != "none")
    assert ("\\mathcal{A}^M(\\mathrm{LN}(X))" in text) == (norm == "pre")
    assert "\\sqrt{D'}" in text and "\\mathrm{ReLU}" in text


def test_the_rounding_shown_is_the_same_whatever_torch_s_thread_count():
    """The error without PE is rounding: on two threads it came out 3.58e-07, on one (while
    another lesson trained in the process) 2.98e-07, so one link showed two errors."""
    cfg = equivariance.Config(text=t("equivariance.default_text", "ja"), perm="shuffle")
    was = torch.get_num_threads()
    try:
        seen = []
        for threads in (1, 2):
            torch.set_num_threads(threads)
            r = equivariance.run(cfg)
            seen.append((r.error, r.attn_error, r.diff.tobytes(), r.A_P.tobytes()))
            assert torch.get_num_threads() == threads  # the process's count, given back
    finally:
        torch.set_num_threads(was)
    assert seen[0] == seen[1]
