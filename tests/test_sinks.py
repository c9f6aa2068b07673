"""Sink shares: a hand-made map with a known answer, the four shares of a row adding to 1
on the real model, BERT's punctuation rule, and hiding tokens with renormalised rows."""

from __future__ import annotations

import numpy as np
import pytest

import attnviz
from attnviz.sinks import (
    CATEGORIES,
    hide_and_renormalise,
    is_punctuation,
    kept_positions,
    sink_shares,
    token_categories,
)

TOKENS = ["[CLS]", "the", "cat", ",", "sat", "[SEP]"]


def hand_map() -> np.ndarray:
    """(1, 2, 6, 6): head 0 puts every row half on [CLS], a quarter on ',' and [SEP]; head 1
    is the identity."""
    A = np.zeros((1, 2, 6, 6))
    A[0, 0, :, 0], A[0, 0, :, 3], A[0, 0, :, 5] = 0.5, 0.25, 0.25
    A[0, 1] = np.eye(6)
    return A


def test_hand_made_map_has_the_known_shares():
    s = sink_shares(hand_map(), TOKENS)
    assert list(s.category) == [0, 3, 3, 2, 3, 1]
    np.testing.assert_allclose(s.grid("cls"), [[0.5, 1 / 6]])
    np.testing.assert_allclose(s.grid("sep"), [[0.25, 1 / 6]])
    np.testing.assert_allclose(s.grid("punct"), [[0.25, 1 / 6]])
    np.testing.assert_allclose(s.grid("rest"), [[0.0, 3 / 6]])
    np.testing.assert_allclose(s.row_shares[:, 0, 1, 2], [0, 0, 0, 1])  # 'cat' reads itself
    with pytest.raises(ValueError, match="cls"):
        s.grid("CLS")


def test_shares_and_rest_add_to_one_on_the_real_model():
    model = attnviz.load_pretrained("all-MiniLM-L6-v2")
    enc = model.encode("Wait... what?! The cat, they say, sat on the mat.")
    s = sink_shares(enc.attentions, enc.tokens)
    L, H = enc.attentions.shape[:2]
    assert s.shares.shape == (len(CATEGORIES), L, H)
    assert s.row_shares.shape == (len(CATEGORIES), L, H, len(enc.tokens))
    np.testing.assert_allclose(s.row_shares.sum(0), 1.0, atol=1e-5)  # every row of every head
    np.testing.assert_allclose(s.shares.sum(0), 1.0, atol=1e-5)
    # against a direct sum over the token columns
    punct = [j for j, t in enumerate(enc.tokens) if t in {".", ",", "?", "!"}]
    np.testing.assert_allclose(
        s.grid("punct"), enc.attentions[..., punct].sum(-1).mean(-1), atol=1e-6
    )
    np.testing.assert_allclose(s.grid("sep"), enc.attentions[..., -1].mean(-1), atol=1e-6)
    # MiniLM parks weight on [CLS] (a third or more on average), far less on [SEP]
    assert s.grid("cls").mean() > 0.3 > s.grid("sep").mean()


@pytest.mark.parametrize(
    "token,expected",
    [(".", True), ("...", True), ("?", True), ("$", True), ("「", True), ("。", True),
     ("a", False), ("##s", False), ("1", False), ("×", False), ("[SEP]", False), ("", False)],
)  # fmt: skip
def test_bert_punctuation_rule(token, expected):
    assert is_punctuation(token) == expected


def test_categories_are_disjoint_and_cover_every_token():
    cats = token_categories(["[CLS]", "hi", "!", "[SEP]", "[SEP]"])
    assert list(cats) == [0, 3, 2, 1, 1]


def test_hide_and_renormalise():
    A = hand_map()
    keep, shown = hide_and_renormalise(A, TOKENS)
    assert list(keep) == [1, 2, 3, 4]
    assert shown.shape == (1, 2, 4, 4)
    np.testing.assert_allclose(shown[0, 0, :, 2], 1.0)  # only ',' is left of head 0's weight
    np.testing.assert_allclose(shown[0, 1], np.eye(4))
    np.testing.assert_allclose(shown.sum(-1), 1.0)
    # with punctuation hidden too, head 0 has nothing left: its rows stay 0, never NaN
    keep, shown = hide_and_renormalise(A, TOKENS, hide=("cls", "sep", "punct"))
    assert list(keep) == [1, 2, 4] and not shown[0, 0].any()
    np.testing.assert_allclose(shown[0, 1], np.eye(3))


def test_hide_keeps_everything_when_nothing_would_be_left():
    assert list(kept_positions(["[CLS]", "[SEP]"])) == [0, 1]
    with pytest.raises(ValueError, match="hide"):
        kept_positions(TOKENS, hide=("special",))
    with pytest.raises(ValueError, match="N"):
        sink_shares(np.zeros((1, 1, 3, 3)), TOKENS)


def test_roles_from_a_family_name_the_candidates_whatever_their_spelling():
    """GPT-2 adds no special token: its first token, whatever it is, takes the "cls" role."""
    tokens = ["The", "Ġcat", ",", "Ġsat"]
    roles = ("cls", None, None, None)
    assert token_categories(tokens, roles).tolist() == [0, 3, 2, 3]
    assert token_categories(["[CLS]", "a", "[SEP]"]).tolist() == [0, 3, 1]  # by name
    A = np.full((1, 1, 4, 4), 0.25)
    shares = sink_shares(A, tokens, roles).shares[:, 0, 0]
    np.testing.assert_allclose(shares, [0.25, 0, 0.25, 0.5])
    keep, maps = hide_and_renormalise(A, tokens, roles=roles)
    assert keep.tolist() == [1, 2, 3] and np.allclose(maps.sum(-1), 1)
