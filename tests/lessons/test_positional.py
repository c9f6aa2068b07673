"""Positional encodings: sinusoidal similarity depends on |i − j|; PE separates a repeated word."""

import numpy as np
import pytest

from attnviz import formulas
from attnviz.lessons import positional
from attnviz.lessons.training_race import Config as RaceConfig
from attnviz.lessons.training_race import LearnedPositions
from attnviz.positional import sinusoidal


def test_sinusoidal_similarity_is_toeplitz():
    S = positional.similarity(positional.table("sinusoidal", 30, 64, 0))
    for k in range(1, 5):
        diag = np.diagonal(S, k)
        np.testing.assert_allclose(diag, diag[0], atol=1e-4)
    np.testing.assert_allclose(np.diagonal(S), 32, atol=1e-4)  # D/2 sin² + cos² pairs
    np.testing.assert_allclose(positional.table("sinusoidal", 5, 8, 0), sinusoidal(5, 8), atol=1e-6)


def test_learned_table_depends_on_seed_and_cosine_is_unit():
    a, b = positional.table("learned", 10, 16, 0), positional.table("learned", 10, 16, 1)
    assert not np.allclose(a, b)
    np.testing.assert_allclose(np.diagonal(positional.similarity(a, cosine=True)), 1, atol=1e-5)


def test_widths():
    w = positional.widths(64, 16)
    assert (w.add, w.concat) == (64, 80)
    assert w.formulas == [formulas.add_concat("d_p")]


@pytest.mark.parametrize(("kind", "cosine"), [("sinusoidal", False), ("learned", True)])
def test_run_draws_the_table_of_its_kind_with_its_formulas(kind, cosine):
    r = positional.run(positional.Config(kind=kind, N=12, D=8, seed=3, cosine=cosine, d_pos=5))
    np.testing.assert_array_equal(r.P, positional.table(kind, 12, 8, 3))
    np.testing.assert_array_equal(r.S, positional.similarity(r.P, cosine))
    assert (r.widths.add, r.widths.concat) == (8, 13)
    assert (formulas.SINUSOIDAL in r.formulas) == (kind == "sinusoidal")
    assert r.formulas[-1] == formulas.position_similarity(cosine)
    assert ("\\lVert" in r.formulas[-1]) == cosine


def test_race_tables_only_with_a_race_and_then_its_own():
    assert positional.kinds(None) == ("sinusoidal", "learned")
    with pytest.raises(ValueError, match="race_post"):
        positional.Config(kind="race_post")
    tables = {n: np.full((8, 32), k, np.float32) for k, n in enumerate(("post", "pre"))}
    race = LearnedPositions(RaceConfig(), tables)
    assert positional.kinds(race)[-2:] == ("race_post", "race_pre")
    r = positional.run(positional.Config(kind="race_pre", race=race))
    assert r.P is tables["pre"] and r.S.shape == (8, 8)
    assert formulas.SINUSOIDAL not in r.formulas


@pytest.mark.parametrize(("field", "value"), [("N", 0), ("D", 257), ("d_pos", 0), ("kind", "x")])
def test_config_caps(field, value):
    with pytest.raises(ValueError):
        positional.Config(**{field: value})


@pytest.mark.parametrize("mode", ["add", "concat"])
def test_same_word_rows_equal_without_pe_and_differ_with_it(mode):
    r = positional.same_word(positional.SameWord("the dog chased the cat", mode))
    assert (r.i, r.j) == (0, 3)
    none, sin = r.rows["none"], r.rows["sinusoidal"]
    np.testing.assert_allclose(none[0], none[1], atol=1e-6)
    assert np.abs(sin[0] - sin[1]).max() > 1e-3
    np.testing.assert_allclose(sin.sum(-1), 1, atol=1e-5)
    assert r.diff["sinusoidal"] == pytest.approx(np.abs(sin[0] - sin[1]).max())
    assert list(r.table.columns) == ["none@0", "none@3", "sinusoidal@0", "sinusoidal@3"]
    np.testing.assert_array_equal(r.table["sinusoidal@3"], sin[1])
    assert r.formulas == [formulas.positions("sinusoidal", mode)]


def test_same_word_without_a_repeat_and_bad_mode():
    assert positional.same_word(positional.SameWord("no repeats here")) is None
    with pytest.raises(ValueError):
        positional.SameWord("a a", mode="mix")
