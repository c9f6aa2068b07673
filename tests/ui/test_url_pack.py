"""Long texts packed into a link (ui/url_pack.py): round trips, links given out before
packing, forged and corrupt values, zip bombs, and the longest link the app can write."""

from __future__ import annotations

import base64
import time
import zlib
from urllib.parse import urlencode

import pytest

from attnviz.lessons.tour.stops import CLAIMS, stop
from attnviz.limits import MAX_TEXT_CHARS
from tools.longest_link import texts
from ui import url_pack
from ui.url_pack import (
    ADDRESS,
    MAX_LINK,
    MAX_QUERY,
    MAX_UNPACKED,
    PACKED,
    SHORT,
    fit,
    pack,
    pack_value,
    unpack,
    unpack_value,
)

KINDS = list(texts(1))  # japanese, kanji, emoji, planes


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("n", [1, 40, MAX_TEXT_CHARS])
def test_a_packed_text_unpacks_to_itself(kind, n):
    text = texts(n)[kind]
    assert len(text) == n
    assert unpack_value(pack_value(text)) == text
    assert unpack(pack({"lang": "ja", "text": text})) == ({"lang": "ja", "text": text}, [])


def test_a_short_text_stays_plain_and_a_long_one_is_packed_shorter():
    short, long = texts(20)["japanese"], texts(MAX_TEXT_CHARS)["japanese"]
    assert url_pack.plain_bytes(short) <= SHORT < url_pack.plain_bytes(long)
    assert pack({"lang": "ja", "text": short, "H": "8"}) == {"lang": "ja", "text": short, "H": "8"}
    packed = pack({"lang": "ja", "text": long, "H": "8"})
    assert list(packed) == ["lang", "text" + PACKED, "H"]  # in place: the link reads the same
    assert len(packed["text" + PACKED]) < url_pack.plain_bytes(long) / 4


def test_a_long_value_that_packing_would_not_shorten_stays_plain():
    text = "a" * 300  # packs shorter: packed
    assert "text.z" in pack({"text": text})
    # ASCII that does not compress: its packed form (base64 of zlib) is longer
    noise = b64(bytes(range(256)) * 2)[:400]
    assert pack({"text": noise}) == {"text": noise}


def test_a_link_given_out_before_packing_reads_as_it_was():
    old = {"lang": "ja", "text": texts(MAX_TEXT_CHARS)["japanese"], "score": "additive"}
    assert unpack(old) == (old, [])


def test_a_plain_value_wins_over_a_packed_one():
    assert unpack({"text": "plain", "text.z": pack_value("packed")}) == ({"text": "plain"}, [])


FORGED = {
    "not base64": "abc$def",
    "padding": pack_value("x") + "=",
    "not zlib": b64(b"hello, world"),
    "empty": "",
    "cut short": pack_value("猫が座った" * 50)[:-12],
    "one bit flipped (checksum)": b64(
        bytes(b ^ (i == 20) for i, b in enumerate(zlib.compress("猫が座った".encode() * 9)))
    ),
    "data after the stream": b64(zlib.compress(b"cat") + b"more"),
    "not UTF-8": b64(zlib.compress(b"\xff\xfe\xfd")),
    "raw deflate, no header": b64(zlib.compress(b"cat")[2:-4]),
}


@pytest.mark.parametrize("name", FORGED)
def test_a_forged_or_corrupt_value_is_refused_and_named(name):
    with pytest.raises(ValueError):
        unpack_value(FORGED[name])
    assert unpack({"lang": "en", "text.z": FORGED[name]}) == ({"lang": "en"}, ["text"])


@pytest.mark.parametrize("mb", [8, 64])
def test_a_zip_bomb_is_refused_at_once_without_unpacking_it(mb):
    """8 MB of one byte packs into a value a link can hold (8 KB): unpacked only up to the
    cap; a 64 MB bomb (64 KB packed) is longer than any link and is not even decoded."""
    bomb = zlib.compress(b"\0" * (mb << 20), 9)  # 8 KB / 64 KB
    value = b64(bomb)
    start = time.perf_counter()
    with pytest.raises(ValueError):
        unpack_value(value)
    assert time.perf_counter() - start < 0.05
    # the cap is the longest text's UTF-8: 2,000 characters of 4 bytes unpack, one more not
    assert unpack_value(pack_value("😀" * MAX_TEXT_CHARS)) == "😀" * MAX_TEXT_CHARS
    with pytest.raises(ValueError):
        unpack_value(b64(zlib.compress(b"a" * (MAX_UNPACKED + 1))))


@pytest.mark.parametrize("kind", KINDS)
def test_the_longest_link_of_any_text_is_at_most_8000_bytes(kind):
    """The page with the most text in its link (the real model's sentence and pooled
    sentences, 2,000 characters each) and every other control set, with an address of
    ADDRESS bytes before it."""
    params = {
        "lang": "ja",
        "text": texts(MAX_TEXT_CHARS, seed=0)[kind],
        "pool": texts(MAX_TEXT_CHARS, seed=1)[kind],
        "measure": "contributions",
        "show": "rollout",
        "layer": "6",
        "head": "12",
        "i": "500",
        "j": "500",
        "qkview": "true",
        "present": "true",
    }
    packed, cut = fit(params)
    link = "h" * ADDRESS + "?" + urlencode(packed)
    assert len(link.encode()) <= MAX_LINK
    view, bad = unpack(packed)
    assert not bad
    assert {k: v for k, v in view.items() if k not in cut} == {
        k: v for k, v in params.items() if k not in cut
    }
    for key, (kept, total) in cut.items():  # a text cut keeps its beginning
        assert view[key] == params[key][:kept] and total == len(params[key])
    if kind == "japanese":  # prose fits whole: packing cuts nothing
        assert cut == {}
    else:  # two texts of rare characters, which nothing packs into 8,000 bytes: each keeps
        # its beginning, in about half the room
        assert set(cut) == {"text", "pool"}
        kept = [n for n, _ in cut.values()]
        assert min(kept) > 0.4 * MAX_TEXT_CHARS and max(kept) < 1.25 * min(kept)


def test_fit_cuts_only_what_does_not_fit():
    text = texts(MAX_TEXT_CHARS)["planes"]  # random code points: ~8 KB packed
    packed, cut = fit({"lang": "ja", "text": text})
    (kept, total) = cut["text"]
    assert 0.9 * total < kept < total
    assert unpack(packed)[0]["text"] == text[:kept]
    # one character more does not fit
    assert url_pack.query_bytes(pack({"lang": "ja", "text": text[: kept + 1]})) > MAX_QUERY
    # a text that needs less than half the room keeps all of it, the other the rest
    short = texts(300, seed=1)["planes"]
    packed, cut = fit({"lang": "ja", "pool": short, "text": text})
    assert set(cut) == {"text"} and unpack(packed)[0]["pool"] == short
    assert url_pack.query_bytes(packed) <= MAX_QUERY
    assert fit({"lang": "ja", "H": "8"}) == ({"lang": "ja", "H": "8"}, {})


def test_every_tour_link_fits():
    """The tour's links to a page (its stops' and their further pages') are written by the
    tour as they are: each is within the limit too."""
    longest = 0
    for claim in CLAIMS:
        for lang in ("ja", "en"):
            for seed in range(12):
                s = stop(claim, lang, seed)
                queries = [s.query(), *(dict(q) for _, q in s.more)]
                longest = max(longest, *(len(urlencode(q)) for q in queries))
    assert 0 < longest <= MAX_QUERY
