"""Positional encodings: sinusoidal similarity depends on |i − j|; PE separates a repeated word."""

import numpy as np

from attnviz.lessons import positions
from attnviz.positional import sinusoidal


def test_sinusoidal_similarity_is_toeplitz():
    S = positions.similarity(positions.table("sinusoidal", 30, 64, 0))
    for k in range(1, 5):
        diag = np.diagonal(S, k)
        np.testing.assert_allclose(diag, diag[0], atol=1e-4)
    np.testing.assert_allclose(np.diagonal(S), 32, atol=1e-4)  # D/2 sin² + cos² pairs
    np.testing.assert_allclose(positions.table("sinusoidal", 5, 8, 0), sinusoidal(5, 8), atol=1e-6)


def test_learned_table_depends_on_seed_and_cosine_is_unit():
    a, b = positions.table("learned", 10, 16, 0), positions.table("learned", 10, 16, 1)
    assert not np.allclose(a, b)
    np.testing.assert_allclose(np.diagonal(positions.similarity(a, cosine=True)), 1, atol=1e-5)


def test_widths():
    assert positions.widths(64, 16) == {"add": 64, "concat": 80}


def test_same_word_rows_equal_without_pe_and_differ_with_it():
    for mode in ("add", "concat"):
        r = positions.same_word("the dog chased the cat", 64, 0, mode)
        assert (r.i, r.j) == (0, 3)
        none, sin = r.rows["none"], r.rows["sinusoidal"]
        np.testing.assert_allclose(none[0], none[1], atol=1e-6)
        assert np.abs(sin[0] - sin[1]).max() > 1e-3
        np.testing.assert_allclose(sin.sum(-1), 1, atol=1e-5)
    assert positions.same_word("no repeats here", 16, 0) is None
