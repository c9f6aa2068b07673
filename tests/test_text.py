"""attnviz.text.tokenize: Japanese split by MeCab (fugashi + ipadic), everything else by the
regex it always used, with the same caps and errors; safe under concurrent sessions. And the
columns a shown text takes (for fitting chart labels)."""

import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import torch

from attnviz import limits, text
from attnviz.errors import InputError
from attnviz.i18n import catalogue
from attnviz.text import embed, tokenize, word_vector

# The split before Japanese was segmented: the oracle for text without Japanese.
REGEX_SPLIT = re.compile(r"\w+|[^\w\s]")


@pytest.mark.parametrize(
    "sentence,tokens",
    [
        ("猫がマットの上に座った。", "猫 が マット の 上 に 座っ た 。"),
        ("犬が男を噛んだ", "犬 が 男 を 噛ん だ"),
        ("犬が猫を見て猫が逃げた", "犬 が 猫 を 見 て 猫 が 逃げ た"),
        ("猫がマットに座り犬がラグに座った", "猫 が マット に 座り 犬 が ラグ に 座っ た"),
        (
            "猫がマットの上に座った。マットは暖かかった",
            "猫 が マット の 上 に 座っ た 。 マット は 暖かかっ た",
        ),
        (
            "注意機構は、クエリとキーの内積で重みを決める。",
            "注意 機構 は 、 クエリ と キー の 内積 で 重み を 決める 。",
        ),
        (
            "「位置符号化」を足すと、順序が分かる！",
            "「 位置 符号 化 」 を 足す と 、 順序 が 分かる ！",
        ),
        ("東京都に住んでいます", "東京 都 に 住ん で い ます"),
        ("猫", "猫"),
    ],
)
def test_japanese_is_split_into_words(sentence, tokens):
    assert tokenize(sentence) == tokens.split()


@pytest.mark.parametrize(
    "sentence,tokens",
    [
        ("Transformerは注意を使う", "transformer は 注意 を 使う"),
        ("私はBERTとGPT-2を比べた。", "私 は bert と gpt - 2 を 比べ た 。"),
        ("Queryとkeyの内積をsqrt(D)で割る", "query と key の 内積 を sqrt ( d ) で 割る"),
        # gpt2 stays one word as in English, though MeCab alone splits it in two.
        ("gpt2を使う", "gpt2 を 使う"),
        # MeCab reads the whole text: 和が before 1 is 和 / が, not the verb 和ぐ.
        (
            "Self-Attentionの重みは行ごとに和が1になる",
            "self - attention の 重み は 行 ごと に 和 が 1 に なる",
        ),
        ("Ｔシャツを着た", "ｔシャツ を 着 た"),
    ],
)
def test_mixed_text_keeps_the_latin_split(sentence, tokens):
    assert tokenize(sentence) == tokens.split()


@pytest.mark.parametrize(
    "sentence",
    [
        "The cat, the CAT!",
        "The animal didn't cross the street because it was too tired.",
        "GPT-2 and BERT: 3.5 km, 100% (roughly) — naïve Über café",
        "snake_case\tand\nnew lines",
        "ΟΔΟΣ",
    ],
)
def test_text_without_japanese_splits_as_before(sentence):
    assert tokenize(sentence) == REGEX_SPLIT.findall(sentence.lower())


@pytest.mark.parametrize(
    "spaced",
    [
        "猫 が マット の 上 に 座った",
        "猫\u3000が\u3000マット",
        "猫が\n犬が\r\n逃げた",
        " 犬 が 男 ",
    ],
)
def test_spaces_between_japanese_words_are_dropped(spaced):
    assert tokenize(spaced) == tokenize(re.sub(r"\s", "", spaced))


def test_japanese_tokens_cover_the_text():
    sentence = "猫がマットの上に座った。マットは暖かかった。注意は行ごとに和が一になる。"
    assert "".join(tokenize(sentence)) == sentence


def test_japanese_default_sentences_lose_their_spaces_unchanged():
    """The pages' Japanese default sentences give the same tokens once their spaces go."""
    defaults = {
        key: entry["ja"]
        for key, entry in catalogue().items()
        if key.split(".")[1].startswith("default_") and text._JAPANESE.search(entry["ja"])
    }
    assert defaults
    for key, sentence in defaults.items():
        assert tokenize(sentence.replace(" ", "")) == tokenize(sentence), key


def test_caps_still_enforced_on_japanese(monkeypatch):
    hi = limits.MAX_TEXT_CHARS
    with monkeypatch.context() as m:
        # Text over the character cap never reaches the analyser.
        m.setattr(text, "_tagger", lambda: pytest.fail("analysed text over the cap"))
        with pytest.raises(InputError, match=f"at most {hi} characters") as err:
            tokenize("猫" * (hi + 1))
    assert err.value.key == "text_long"
    assert err.value.fields == {"hi": hi, "value": hi + 1}

    assert tokenize("猫が" * (limits.MAX_N // 2)) == ["猫", "が"] * (limits.MAX_N // 2)
    with pytest.raises(InputError, match=r"at most 512 tokens \(N in \[1, 512\]\), got 514") as err:
        tokenize("猫が" * (limits.MAX_N // 2 + 1))
    assert err.value.key == "text_tokens"
    assert err.value.fields == {"hi": limits.MAX_N, "value": limits.MAX_N + 2}

    for blank in ("\u3000", " \u3000\n"):
        with pytest.raises(InputError, match="at least 1 token") as err:
            tokenize(blank)
        assert err.value.key == "no_tokens"
    with pytest.raises(ValueError, match="text must be a string, got bytes"):
        tokenize("猫".encode())


def test_a_japanese_word_has_one_vector():
    tokens = tokenize("犬が猫を見て猫が逃げた")
    X = embed(tokens, 16)  # (N, D)
    assert tokens[2] == tokens[6] == "猫"
    assert torch.equal(X[2], X[6]) and not torch.equal(X[0], X[2])
    assert torch.equal(X[2], word_vector("猫", 16))


SENTENCES = [
    "猫がマットの上に座った。",
    "Transformerは注意を使う",
    "犬が猫を見て猫が逃げた",
    "The cat sat on the mat.",
    "注意機構は、クエリとキーの内積で重みを決める。",
    "Self-Attentionの重みは行ごとに和が1になる",
]


def test_concurrent_sessions_get_the_serial_tokens():
    expected = {s: tokenize(s) for s in SENTENCES}
    with ThreadPoolExecutor(max_workers=8) as pool:
        got = list(pool.map(tokenize, SENTENCES * 100))
    assert got == [expected[s] for s in SENTENCES * 100]


def test_parsing_takes_turns(monkeypatch):
    """The shared tagger never parses two texts at once."""
    inside, most = 0, 0
    count = threading.Lock()

    class SlowTagger:
        def parse(self, sentence):
            nonlocal inside, most
            with count:
                inside += 1
                most = max(most, inside)
            time.sleep(0.002)
            with count:
                inside -= 1
            return sentence

    tagger = SlowTagger()
    monkeypatch.setattr(text, "_tagger", lambda: tagger)
    with ThreadPoolExecutor(max_workers=8) as pool:
        assert list(pool.map(tokenize, ["猫が"] * 64)) == [["猫が"]] * 64
    assert most == 1


def test_shown_text_takes_two_columns_a_wide_character_and_none_a_plotly_tag():
    assert text.columns("注意 q") == 2 + 2 + 1 + 1  # a kanji takes two columns
    assert text.columns("ヘッド 1") == 3 * 2 + 1 + 1  # kana, as kanji
    assert text.columns("（") == 2 and text.columns("(") == 1  # a full-width sign
    assert text.columns("a<sub>i</sub> = softmax(r)<sub>i</sub>") == len("ai = softmax(r)i")


@pytest.mark.parametrize(
    ("sentence", "tokens"),
    [
        ("great 👍🏽 job", ["great", "👍🏽", "job"]),  # a skin tone stays with its thumb
        ("猫が👍🏽した", ["猫", "が", "👍🏽", "し", "た"]),
        ("to 🇯🇵!", ["to", "🇯🇵", "!"]),  # a flag is two regional indicators
        ("a 👩\u200d💻 b", ["a", "👩\u200d💻", "b"]),  # joined by a zero-width joiner
        ("cafe\u0301 ok", ["cafe\u0301", "ok"]),  # e and a combining acute: one word
        ("1\ufe0f\u20e3", ["1\ufe0f\u20e3"]),  # a keycap
    ],
)
def test_a_sign_is_one_grapheme_cluster(sentence, tokens):
    """What the reader sees as one character is one token (Unicode's extended grapheme
    cluster, UAX #29): 👍🏽 was a thumb and a lone skin-tone modifier."""
    assert tokenize(sentence) == tokens


@pytest.mark.parametrize(
    "sentence",
    [
        ("猫がマットの上に座った。マットは暖かかった。" * 91)[: limits.MAX_TEXT_CHARS],
        ("the cat sat on the mat. " * 90)[: limits.MAX_TEXT_CHARS],
    ],
)
def test_a_long_text_is_cut_after_its_last_token_that_fits(sentence):
    start, n = text.first_tokens(sentence, limits.MAX_N)
    whole = tokenize(start)
    assert n > limits.MAX_N and whole == text._segment(sentence)[: len(whole)]
    assert len(whole) == limits.MAX_N  # every token that fits, each whole
    assert text.first_tokens("a b c", 3) == ("a b c", 3)  # short: as it is
