"""The scoring lesson: its config's rules, its weights against softmax written out, the shuffle."""

import math

import numpy as np
import pytest
import torch

from attnviz import formulas
from attnviz.errors import InputError
from attnviz.i18n import t
from attnviz.lessons import scoring
from attnviz.scores import SCORES, make_score
from attnviz.text import embed, tokenize, word_vector

TEXT = "the cat sat on the mat and the dog sat on the rug"


@pytest.mark.parametrize(
    ("fields", "key"),
    [
        (dict(text="   ", query="cat"), "no_tokens"),
        (dict(text="a b", query=""), "no_queries"),
        (dict(text="a b", query="、。"), "no_queries"),
        (dict(text="a b", query=" ".join(["w"] * 33)), "range"),
        (dict(source="random", M=0), "range"),
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
    r = scoring.run(scoring.Config(source="random", N=7, M=2, D=16))
    assert r.tokens == [f"z{i}" for i in range(1, 8)] and r.queries == ["q1", "q2"]
    assert r.by_score.shape == (len(SCORES), 7) and r.attended.shape == (16,)
    assert r.many.shape == (2, 7) and r.many_attended.shape == (2, 16)
    assert r.self_index is None and r.many_self == []


@pytest.mark.parametrize("seed", [0, 7])
def test_random_sources_are_drawn_apart_from_the_scores_parameters(seed):
    """query_only's W and the sources X come from different streams: were they one, W
    would be X / √D and query_only's weights exactly scaled_dot's."""
    r = scoring.run(scoring.Config(source="random", N=8, M=3, D=64, seed=seed))
    a = dict(zip(r.names, r.by_score, strict=True))
    assert np.abs(a["query_only"] - a["scaled_dot"]).max() > 0.05
    X = scoring.sources(scoring.Config(source="random", N=8, M=3, D=64, seed=seed))[1]
    W = make_score("query_only", 64, seed=seed).W[:8]  # (N, D)
    assert torch.corrcoef(torch.stack([W.flatten(), X.flatten()]))[0, 1].abs() < 0.1


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
    assert r.self_index == 1 and r.self_score == pytest.approx(float(q @ q) / math.sqrt(32))


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


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_default_query_is_no_source_so_sqrt_D_keeps_its_weights_spread(lang):
    """Item 1.2: at the page's defaults q is not one of the sources, so the √D caption is true:
    unscaled, one word takes almost everything; scaled, no word takes half."""
    cfg = scoring.Config(
        text=t("scoring.default_text", lang), query=t("scoring.default_query", lang)
    )
    r = scoring.run(cfg)
    assert r.queries[0] not in r.tokens and r.self_index is None and r.self_score is None
    assert r.top_share["dot"] > 0.9 and r.top_share["scaled_dot"] < 0.5
    share = {
        w: r.by_score[r.names.index("scaled_dot")][np.array(r.tokens) == w].sum() for w in r.tokens
    }
    assert r.top_share["scaled_dot"] == pytest.approx(max(share.values()), abs=1e-6)


def test_a_query_among_the_sources_finds_itself_whatever_the_scaling():
    """The self-match: ‖q‖²/√D ≈ √D against itself beats the ±1 of unrelated words."""
    r = scoring.run(scoring.Config(text=TEXT, query="cat", D=1024))
    assert r.self_index == 1 and r.self_score == pytest.approx(32, rel=0.1)
    assert r.top_share["scaled_dot"] > 0.99


@pytest.mark.parametrize("score", list(SCORES))
def test_all_queries_at_once_are_the_single_query_rows(score):
    """S9: Q̃ = softmax(r(X, Q)) X row by row; each row is that query alone."""
    fields = dict(text=TEXT, D=16, score=score, mlp_hidden=5, seed=2)
    r = scoring.run(scoring.Config(query="pet, cat, bird", **fields))
    assert r.queries == ["pet", "cat", "bird"] and r.many.shape == (3, len(r.tokens))
    np.testing.assert_allclose(r.many.sum(axis=1), 1.0, atol=1e-5)
    np.testing.assert_allclose(r.many[0], r.weights, atol=1e-6)
    for m, word in enumerate(r.queries):
        alone = scoring.run(scoring.Config(query=word, **fields))
        np.testing.assert_allclose(r.many[m], alone.weights, atol=1e-6)
        np.testing.assert_allclose(r.many_attended[m], alone.attended, atol=1e-5)
    assert r.many_self == [(1, pytest.approx(float(r.many[1, 1]), abs=1e-6))]  # "cat" is a source


def test_all_queries_at_once_is_the_chapter_operator_A_D():
    """S11: Q̃ = 𝒜_D(Q, X, X) against PyTorch's own scaled_dot_product_attention."""
    r = scoring.run(scoring.Config(text=TEXT, query="pet, cat, bird", D=64))
    X = embed(tokenize(TEXT), 64)  # (N, D)
    Q = embed(["pet", "cat", "bird"], 64)  # (M, D)
    want = torch.nn.functional.scaled_dot_product_attention(Q[None], X[None], X[None])[0]
    np.testing.assert_allclose(r.many_attended, want.numpy(), atol=1e-5)
    np.testing.assert_allclose(r.many, torch.softmax(Q @ X.T / 8, -1).numpy(), atol=1e-6)
    assert r.many_formulas == formulas.many_queries("scaled_dot")
    text = " ".join(r.many_formulas)
    assert "\\mathcal{A}_D(Q, X, X)" in text and "Q X^\\top" in text
    other = scoring.run(scoring.Config(text=TEXT, query="pet", score="mlp")).many_formulas
    assert (
        "\\mathcal{A}_D" not in " ".join(other) and "r(\\mathbf{z}_i, \\mathbf{q}_m)" in other[-1]
    )


def test_query_words_are_the_words_typed_punctuation_separates_them():
    assert scoring.query_words("ペット、猫、鳥") == ["ペット", "猫", "鳥"]
    assert scoring.query_words("pet, cat; bird!") == ["pet", "cat", "bird"]
    assert scoring.query_words("猫がマットに座った") == ["猫", "が", "マット", "に", "座っ", "た"]
