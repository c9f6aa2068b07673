"""The scoring lesson: its config's rules, its weights against softmax written out, the shuffle."""

import math

import numpy as np
import pytest
import torch

from attnviz.errors import InputError
from attnviz.lessons import scoring
from attnviz.scoring import SCORES, make_score
from attnviz.text import embed, tokenize, word_vector

TEXT = "the cat sat on the mat and the dog sat on the rug"


@pytest.mark.parametrize(
    ("fields", "key"),
    [
        (dict(text="   ", query="cat"), "no_tokens"),
        (dict(text="a b", query=""), "no_tokens"),
        (dict(source="random", N=0), "range"),
        (dict(source="random", N=512, D=2048), "range"),
        (dict(text="a", query="a", score="cosine"), "choice"),
        (dict(text="a", query="a", score="mlp", mlp_hidden=0), "range"),
        (dict(text="a", query="a", shuffle_seed=-1), "range"),
    ],
)
def test_config_rejects_bad_input_with_a_translatable_key(fields, key):
    with pytest.raises(InputError) as err:
        scoring.Config(**fields)
    assert err.value.key == key


def test_random_sources_ignore_the_text_fields():
    r = scoring.run(scoring.Config(source="random", N=7, D=16))
    assert r.tokens == [f"z{i}" for i in range(1, 8)]
    assert r.by_score.shape == (len(SCORES), 7) and r.attended.shape == (16,)


def test_scaled_dot_is_softmax_of_qz_over_sqrt_D_and_reads_the_sources():
    cfg = scoring.Config(text=TEXT, query="cat", D=32)
    r = scoring.run(cfg)
    Z = embed(tokenize(TEXT), 32).double()  # (N, D)
    q = word_vector("cat", 32).double()
    s = Z @ q / math.sqrt(32)  # (N,)
    a = torch.softmax(s, -1)
    np.testing.assert_allclose(r.scores, s.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(r.weights, a.numpy(), atol=1e-6)
    np.testing.assert_allclose(r.attended, (a @ Z).numpy(), atol=1e-5)
    np.testing.assert_allclose(r.by_score[r.names.index("scaled_dot")], r.weights)
    assert r.weights[1] == r.weights.max()  # the query word itself gets the most weight


@pytest.mark.parametrize("score", list(SCORES))
def test_every_row_is_the_softmax_of_its_own_score(score):
    cfg = scoring.Config(text=TEXT, query="dog", D=16, score=score, mlp_hidden=5, seed=4)
    r = scoring.run(cfg)
    Z, q = embed(tokenize(TEXT), 16), word_vector("dog", 16)
    expected = torch.softmax(make_score(score, 16, seed=4, hidden=5)(Z, q[None])[0], -1)
    np.testing.assert_allclose(r.weights, expected.detach().numpy(), atol=1e-6)
    np.testing.assert_allclose(r.by_score.sum(axis=1), 1.0, atol=1e-5)


@pytest.mark.parametrize(
    ("score", "moves"), [("scaled_dot", True), ("mlp", True), ("query_only", False)]
)
def test_shuffle_tells_content_from_position(score, moves):
    r = scoring.run(scoring.Config(text=TEXT, query="cat", score=score, shuffle_seed=3))
    assert sorted(r.perm) == list(range(len(r.tokens))) and (r.perm != np.arange(13)).any()
    if moves:  # each source keeps its weight wherever it now stands
        np.testing.assert_allclose(r.shuffled, r.weights[r.perm], atol=1e-6)
        assert r.follows < 1e-6 < 1e-3 < r.stays
    else:  # the weights belong to the positions
        np.testing.assert_allclose(r.shuffled, r.weights, atol=1e-6)
        assert r.stays < 1e-6 < 1e-3 < r.follows
    still = scoring.run(scoring.Config(text=TEXT, query="cat", score=score, shuffle_seed=0))
    np.testing.assert_array_equal(still.perm, np.arange(13))
    assert still.follows == still.stays == 0.0


@pytest.mark.parametrize("score", list(SCORES))
def test_formulas_are_those_of_the_score_computed(score):
    r = scoring.run(scoring.Config(text="a b c", query="b", D=8, score=score))
    text = " ".join(r.formulas)
    assert ("\\sqrt{D}" in text) == (score in ("scaled_dot", "bilinear"))
    assert ("\\tanh" in text) == (score == "mlp")
    assert ("(W \\mathbf{q})_j" in text) == (score == "query_only")
    assert "D'" not in text  # one query, no heads: the scale is the width D
    assert ("\\exp r" in text) == (score != "scaled_dot")  # S8's matrix form for the dot score
