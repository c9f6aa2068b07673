"""Japanese needs no spaces on every text page of the law and block pages: the default
sentence and typed ones come out as MeCab's words; English keeps its word split (§3)."""

import pytest

from attnviz.i18n import t

from .helpers import assert_clean, figures, run_page


def shown_tokens(page: str, at) -> list[str]:
    """The tokens a page labels its first token axis with ("i:token", from 1)."""
    if page == "scoring":
        labels = figures(at)[1]["layout"]["xaxis"]["ticktext"]  # the weights' bars
    elif page == "equivariance":
        labels = figures(at)[0]["layout"]["xaxis"]["ticktext"]  # A(X)
    elif page == "block_anatomy":
        labels = [tr["name"] for tr in figures(at)[1]["data"]]  # one line per token
    else:  # positional: the rows of the repeated word, over every key token
        labels = list(figures(at)[2]["data"][0]["x"])
    assert [int(label.split(":", 1)[0]) for label in labels] == list(range(1, len(labels) + 1))
    return [label.split(":", 1)[1] for label in labels]


DEFAULTS = {
    "scoring": "猫 が マット に 座り 、 犬 が ラグ に 座っ た 。",
    "equivariance": "犬 が 男 を 噛ん だ",
    "block_anatomy": "猫 が マット の 上 に 座っ た 。",
    "positional": "犬 が 猫 を 見 て 、 猫 が 逃げ た 。",
}
TYPED = [  # (typed, expected tokens); each repeats a word, as the positional page needs one
    ("猫がマットの上に座り、猫が寝た。", "猫 が マット の 上 に 座り 、 猫 が 寝 た 。"),
    ("Transformerは注意を使う。注意は重い。", "transformer は 注意 を 使う 。 注意 は 重い 。"),
    ("the cat saw the dog", "the cat saw the dog"),
]


@pytest.mark.parametrize("page", list(DEFAULTS))
def test_the_japanese_default_sentence_has_no_spaces_and_is_segmented(page):
    assert " " not in t(f"{page}.default_text", "ja")
    at = run_page(page, lang="ja")
    assert_clean(at)
    assert shown_tokens(page, at) == DEFAULTS[page].split()


@pytest.mark.parametrize("page", list(DEFAULTS))
def test_english_defaults_keep_their_word_split(page):
    at = run_page(page, lang="en")
    assert_clean(at)
    assert shown_tokens(page, at) == t(f"{page}.default_text", "en").split()


@pytest.mark.parametrize("page", list(DEFAULTS))
@pytest.mark.parametrize(("typed", "expected"), TYPED)
def test_typed_sentences_give_the_expected_tokens(page, typed, expected):
    at = run_page(page, lang="ja", text=typed)
    assert_clean(at)
    assert shown_tokens(page, at) == expected.split()
