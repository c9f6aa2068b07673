"""Japanese and English strings for the app: ``t("scoring.title", "ja")``.

Each file ``strings/<topic>.toml`` holds one table per key with an ``en`` and a
``ja`` entry, so the two languages of a string sit side by side; the full key is
``<topic>.<key>``. ``str.format`` fields (``{N}``) are filled from keyword arguments.
In Japanese, the space that sets a number apart from the Japanese script beside it does not
break a line (``KEEP``): 「約 12 秒」 stays on one line, not 「約 12」 and 「秒」. Nor does the
hyphen of the chapter's hyphenated terms (``TERMS``): with no spaces in a Japanese line, the
hyphen was where it broke, 「…深さ：post-」 and 「LN 形式と…」. Nor the spaces around a
relation sign in plain text (``RELATION``: 「D / = 1〜4096」), nor a range's 〜 between numbers
(「95%〜 / 99%」). In both languages, inline math (KaTeX breaks it after a relation or a binary
operator, 「X = / [z₁, …]」) is kept whole when short (``SHORT_MATH``); a long one still
breaks, and its string groups a bracket that must not, as positional.note_reads does.

A page's strings live in the file named after the page (``pages/block/training_race.py``
reads ``training_race.toml``). The files no page owns are shared: ``app`` (the frame and
navigation), ``errors`` (the engine's errors by key), ``names`` (the display names of engine
options) and ``steps`` (one weight followed through its formula and a head's query–key
space, for the multi-head and real-model pages).
"""

from __future__ import annotations

import re
import tomllib
from functools import cache, lru_cache
from pathlib import Path

LANGS = ("ja", "en")
STRINGS = Path(__file__).with_name("strings")
# Japanese script: CJK punctuation (。、「」々〜, not the ideographic space), hiragana,
# katakana (ー, ・), kanji, half-width katakana and punctuation (｡｢｣､).
JAPANESE = (
    "[\u3001-\u303f\u3041-\u309f\u30a0-\u30ff\u31f0-\u31ff\u3400-\u4dbf"
    "\u4e00-\u9fff\uf900-\ufaff\uff61-\uff9f\U00020000-\U0003134f]"
)
# fields that name a model's sink candidates in words ([CLS] and [SEP], 最初のトークン): the
# space written beside one for a Latin value falls away when the value is Japanese
PHRASES = ("specials", "each", "sink")
KANA_KANJI = "[\u3040-\u30ff\u4e00-\u9fff]"
KEEP = re.compile(rf"(?<=\d) (?={JAPANESE})|(?<={JAPANESE}) (?=\d)")
NO_BREAK = "\u00a0"
TERMS = re.compile(r"\b(post|pre|self)-(?=LN\b|attention\b)")  # post-LN, pre-LN, self-attention
NO_BREAK_HYPHEN = "\u2011"  # drawn as the hyphen (the app's font maps both to one glyph)
RELATION = re.compile(r"(?<=\S) ([=≈≠<>≤≥∝×]) (?=\S)")  # D = 64, D′ < D, 13 × 64
RANGE = re.compile(r"(?<=[\d%])〜(?=\d)")  # 1〜4096, 95%〜99%
WORD_JOINER = "\u2060"  # no break here, and nothing drawn
MATH = re.compile(r"(?<![\\$])\$(?!\$)([^$]+?)\$")  # inline math, $…$ (not $$…$$ or \$)
SHORT_MATH = 20  # symbols, about: X = [z_1, …, z_N]^⊤ ∈ ℝ^{N×D} is 17, and kept whole


@cache
def catalogue() -> dict[str, dict[str, str]]:
    """Every key → {"en": …, "ja": …}, read once from the TOML files."""
    table: dict[str, dict[str, str]] = {}
    for path in sorted(STRINGS.glob("*.toml")):
        with path.open("rb") as f:
            for key, entry in tomllib.load(f).items():
                table[f"{path.stem}.{key}"] = entry
    return table


def plain(text: str) -> str:
    """``text`` with the line-keeping characters of ``t`` back as plain ones, for what
    leaves the app as data: a file's name, a CSV's headers."""
    return text.replace(NO_BREAK, " ").replace(NO_BREAK_HYPHEN, "-").replace(WORD_JOINER, "")


def _symbols(tex: str) -> int:
    """About how many symbols ``tex`` draws: a font command draws none, another command one."""
    tex = re.sub(r"\\(math[a-z]+|boldsymbol|operatorname|text|tilde|hat|bar)\b", "", tex)
    return len(re.sub(r"[{}^_\s]", "", re.sub(r"\\[A-Za-z]+", "x", tex)))


def _unbroken(tex: str) -> str:
    """Inline math that KaTeX does not break, when short: one group. A long one keeps its
    breaks; where one would split a bracket, its string groups that bracket itself."""
    return "{" + tex + "}" if _symbols(tex) <= SHORT_MATH else tex


def _keep_lines(text: str) -> str:
    """The Japanese plain text's no-break rules, RELATION and RANGE, outside inline math."""
    parts = MATH.split(text)  # text, math, text, …
    for k in range(0, len(parts), 2):
        parts[k] = RANGE.sub("〜" + WORD_JOINER, RELATION.sub(rf"{NO_BREAK}\1{NO_BREAK}", parts[k]))
    for k in range(1, len(parts), 2):
        parts[k] = f"${parts[k]}$"
    return "".join(parts)


def t(key: str, lang: str, **fields: object) -> str:
    """The string ``key`` in ``lang`` (``ja`` or ``en``), formatted with ``fields``.

    Kept once set for the same key, language and fields: a page asks for ~70 strings a run,
    each set through five regular expressions, and a class of 40 reruns it at once."""
    try:
        # each value's type is part of the key: 1, 1.0 and True are equal keys but set apart
        return _set(key, lang, tuple((k, type(v), v) for k, v in sorted(fields.items())))
    except TypeError:  # a field that cannot be a key (a list): set it each time
        return _setting(key, lang, fields)


@lru_cache(maxsize=4096)  # ~35 MB at worst: a 2,000-character text as a field, key and value
def _set(key: str, lang: str, fields: tuple[tuple[str, type, object], ...]) -> str:
    return _setting(key, lang, {k: v for k, _, v in fields})


def _glued(template: str, fields: dict[str, object]) -> str:
    """The Japanese ``template`` without the space beside a ``PHRASES`` field whose value is
    Japanese on that side: 「{specials} を除き」 reads 「最初のトークンを除き」."""
    for name in PHRASES:
        value = str(fields.get(name, ""))
        if re.match(KANA_KANJI, value[-1:]):
            template = re.sub(rf"\{{{name}\}} (?={KANA_KANJI})", f"{{{name}}}", template)
        if re.match(KANA_KANJI, value[:1]):
            template = re.sub(rf"(?<={KANA_KANJI}) \{{{name}\}}", f"{{{name}}}", template)
    return template


def _setting(key: str, lang: str, fields: dict[str, object]) -> str:
    entry = catalogue()[key]
    lang = lang if lang in LANGS else "en"
    text = entry.get(lang) or entry["en"]
    if lang == "ja":
        text = _glued(text, fields)
    text = text.format(**fields) if fields else text
    text = MATH.sub(lambda m: f"${_unbroken(m.group(1))}$", text)
    if lang != "ja":
        return text
    return TERMS.sub(rf"\1{NO_BREAK_HYPHEN}", KEEP.sub(NO_BREAK, _keep_lines(text)))
