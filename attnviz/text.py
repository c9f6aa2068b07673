"""Text → tokens → vectors, for pages that start from a sentence the user types.

Japanese needs no spaces: MeCab's morphological analysis with the IPA dictionary
(fugashi + ipadic) finds its words. Everything else (English, the Latin parts of mixed
text) is split into words and single signs by one regex, a sign being one grapheme
cluster (Unicode's user-perceived character: 👍🏽, 🇯🇵 and a family joined by zero-width
joiners are one token each, not a thumb and a lone skin tone); the ``regex`` package
knows them (``\\X``), ``re`` does not.

Embeddings are deterministic per word: the word's bytes seed the generator, so a
repeated word gets the same vector, in every process and on every machine.
"""

from __future__ import annotations

import functools
import hashlib
import html
import re
import threading
import unicodedata
from collections.abc import Sequence

import fugashi
import ipadic
import regex
import torch

from .errors import InputError
from .i18n import JAPANESE
from .limits import MAX_D, MAX_N, MAX_TEXT_CHARS, check_int

# a word (its combining marks included: regex's \w holds them), or one sign of any other kind
_TOKEN = regex.compile(r"\w+|(?!\s)\X")
_JAPANESE = re.compile(JAPANESE)
# One MeCab tagger per process, shared by every session's thread. MeCab's one-call
# parse reuses the tagger's own lattice, so calls take turns.
_TAGGER_LOCK = threading.Lock()


@functools.cache
def _tagger() -> fugashi.GenericTagger:
    """MeCab with the IPA dictionary, printing the words' surface forms between spaces."""
    return fugashi.GenericTagger(f"{ipadic.MECAB_ARGS} -Owakati")


def _japanese_words(text: str) -> list[tuple[int, int]]:
    """Spans ``(start, stop)`` in ``text`` of the words MeCab finds that hold Japanese.

    MeCab reads the whole text, so a word at the edge of a Japanese run is segmented in
    its context (和が1 → 和 / が / 1, where 和が alone reads as the verb 和ぐ).
    """
    with _TAGGER_LOCK:
        words = _tagger().parse(text).split()
    spans, stop = [], 0
    for word in words:
        # MeCab drops only whitespace between words: each word is the next match.
        start = text.find(word, stop)
        stop = start + len(word)
        if _JAPANESE.search(word):
            spans.append((start, stop))
    return spans


def _segment(text: str) -> list[str]:
    """MeCab's Japanese words, and ``_TOKEN``'s split of the text around them."""
    if not _JAPANESE.search(text):
        return _TOKEN.findall(text.lower())
    tokens, done = [], 0
    for start, stop in _japanese_words(text):
        tokens += _TOKEN.findall(text[done:start].lower())
        tokens.append(text[start:stop].lower())
        done = stop
    return tokens + _TOKEN.findall(text[done:].lower())


@functools.lru_cache(maxsize=64)  # a page asks on every rerun; a long text bisects
def first_tokens(text: str, n: int = MAX_N) -> tuple[str, int]:
    """The longest start of ``text`` whose tokens are the first ≤ ``n`` of ``text``'s own,
    and how many tokens ``text`` holds: a page cuts a long text there, as the real model
    cuts to its 512 (``tokenize`` itself never cuts: the engine refuses what it cannot take).

    The cut ends where a token of the whole text ends, found by bisection on the length of
    the start (MeCab reads a word in its context, so a start is segmented afresh).
    """
    whole = _segment(check_text(text))
    if len(whole) <= n:
        return text, len(whole)
    lo, hi = 0, len(text)  # the start text[:lo] holds at most n tokens, text[:hi] more
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if len(_segment(text[:mid])) <= n else (lo, mid)
    while lo and _segment(text[:lo]) != whole[: len(_segment(text[:lo]))]:
        lo -= 1  # the start's last token is part of a longer one of the whole text
    return text[:lo].rstrip(), len(whole)


def check_text(text: object) -> str:
    """A typed text: a string of at most MAX_TEXT_CHARS characters (checked before any
    analysis, so a long text never reaches the analyser)."""
    if not isinstance(text, str):
        raise ValueError(f"text must be a string, got {type(text).__name__}")
    if len(text) > MAX_TEXT_CHARS:
        raise InputError(
            f"text must be at most {MAX_TEXT_CHARS} characters, got {len(text)}",
            "text_long",
            hi=MAX_TEXT_CHARS,
            value=len(text),
        )
    return text


TAG = re.compile(r"<[^>]+>")  # Plotly's <sub>, <br>, …: they take no columns


def is_wide(c: str) -> bool:
    """A kana, kanji or full-width sign: two columns (Unicode's East Asian width W or F)."""
    return unicodedata.east_asian_width(c) in "WF"


def columns(text: str) -> int:
    """Columns ``text`` takes as shown: two for a wide character, one for the rest, none
    for a Plotly tag (about half an em each)."""
    return sum(2 if is_wide(c) else 1 for c in TAG.sub("", text))


def has_japanese(text: str) -> bool:
    """True when ``text`` holds kana or kanji (the words that go to the morphological analyser)."""
    return bool(_JAPANESE.search(text))


def tokenize(text: str) -> list[str]:
    """Split into words and punctuation marks; Latin text is lower-cased.

    「猫がマットの上に座った。」 → 猫 が マット の 上 に 座っ た 。 (MeCab + IPA dictionary);
    "Transformerは注意を使う" → transformer は 注意 を 使う; English keeps its regex split,
    "didn't" → didn ' t.
    """
    check_text(text)
    tokens = _segment(text)
    if not tokens:
        raise InputError("text must contain at least 1 token", "no_tokens", hi=MAX_N)
    if len(tokens) > MAX_N:
        raise InputError(
            f"text must have at most {MAX_N} tokens (N in [1, {MAX_N}]), got {len(tokens)}",
            "text_tokens",
            hi=MAX_N,
            value=len(tokens),
        )
    return tokens


def word_vector(word: str, D: int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """A unit-variance N(0, 1) vector in ℝ^D determined by ``word`` alone."""
    D = check_int("D", D, 1, MAX_D)
    seed = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest(), "little")
    g = torch.Generator().manual_seed(seed % 2**63)
    return torch.randn(D, generator=g, dtype=dtype)


def embed(tokens: list[str], D: int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """Stack the word vectors of ``tokens`` into X ∈ ℝ^{N×D}."""
    if not tokens:
        raise ValueError(f"tokens must hold at least 1 token (N in [1, {MAX_N}])")
    return torch.stack([word_vector(w, D, dtype) for w in tokens])


def random_tokens(N: int, D: int, seed: int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """N random N(0, 1) vectors in ℝ^D from ``seed``."""
    N = check_int("N", N, 1, MAX_N)
    D = check_int("D", D, 1, MAX_D)
    g = torch.Generator().manual_seed(seed)
    return torch.randn(N, D, generator=g, dtype=dtype)


def token_labels(
    tokens: Sequence[str],
    positions: Sequence[int] | None = None,
    *,
    start: int = 1,
    escape: bool = True,
) -> list[str]:
    """Labels ``"i:token"`` numbered by position, for axes, hover text and CSV headers.

    ``positions`` are the engine's 0-based indices (default 0 … N−1); a label shows
    ``position + start``, so by default tokens are numbered x_1 … x_N as in the chapter.
    ``escape`` HTML-escapes the token (Plotly renders some tags in labels); CSV files
    want the token as typed.
    """
    positions = range(len(tokens)) if positions is None else positions
    quote = html.escape if escape else str
    return [f"{i + start}:{quote(tok)}" for i, tok in zip(positions, tokens, strict=True)]
