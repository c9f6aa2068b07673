"""Japanese and English strings for the app: ``t("scoring.title", "ja")``.

Each file ``strings/<topic>.toml`` holds one table per key with an ``en`` and a
``ja`` entry, so the two languages of a string sit side by side; the full key is
``<topic>.<key>``. ``str.format`` fields (``{N}``) are filled from keyword arguments.
In Japanese, the space that sets a number apart from the Japanese script beside it does not
break a line (``KEEP``): 「約 12 秒」 stays on one line, not 「約 12」 and 「秒」. Nor does the
hyphen of the chapter's hyphenated terms (``TERMS``): with no spaces in a Japanese line, the
hyphen was where it broke, 「…深さ：post-」 and 「LN 形式と…」.
"""

from __future__ import annotations

import re
import tomllib
from functools import cache
from pathlib import Path

LANGS = ("ja", "en")
STRINGS = Path(__file__).with_name("strings")
# Japanese script: CJK punctuation (。、「」々〜, not the ideographic space), hiragana,
# katakana (ー, ・), kanji, half-width katakana and punctuation (｡｢｣､).
JAPANESE = (
    "[\u3001-\u303f\u3041-\u309f\u30a0-\u30ff\u31f0-\u31ff\u3400-\u4dbf"
    "\u4e00-\u9fff\uf900-\ufaff\uff61-\uff9f\U00020000-\U0003134f]"
)
KEEP = re.compile(rf"(?<=\d) (?={JAPANESE})|(?<={JAPANESE}) (?=\d)")
NO_BREAK = "\u00a0"
TERMS = re.compile(r"\b(post|pre|self)-(?=LN\b|attention\b)")  # post-LN, pre-LN, self-attention
NO_BREAK_HYPHEN = "\u2011"  # drawn as the hyphen (the app's font maps both to one glyph)


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
    return text.replace(NO_BREAK, " ").replace(NO_BREAK_HYPHEN, "-")


def t(key: str, lang: str, **fields: object) -> str:
    """The string ``key`` in ``lang`` (``ja`` or ``en``), formatted with ``fields``."""
    entry = catalogue()[key]
    lang = lang if lang in LANGS else "en"
    text = entry.get(lang) or entry["en"]
    text = text.format(**fields) if fields else text
    if lang != "ja":
        return text
    return TERMS.sub(rf"\1{NO_BREAK_HYPHEN}", KEEP.sub(NO_BREAK, text))
