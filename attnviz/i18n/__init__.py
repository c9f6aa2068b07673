"""Japanese and English strings for the app: ``t("scoring.title", "ja")``.

Each file ``strings/<topic>.toml`` holds one table per key with an ``en`` and a
``ja`` entry, so the two languages of a string sit side by side; the full key is
``<topic>.<key>``. ``str.format`` fields (``{N}``) are filled from keyword arguments.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

LANGS = ("ja", "en")
STRINGS = Path(__file__).with_name("strings")


@cache
def catalogue() -> dict[str, dict[str, str]]:
    """Every key → {"en": …, "ja": …}, read once from the TOML files."""
    table: dict[str, dict[str, str]] = {}
    for path in sorted(STRINGS.glob("*.toml")):
        with path.open("rb") as f:
            for key, entry in tomllib.load(f).items():
                table[f"{path.stem}.{key}"] = entry
    return table


def t(key: str, lang: str, **fields: object) -> str:
    """The string ``key`` in ``lang`` (``ja`` or ``en``), formatted with ``fields``."""
    entry = catalogue()[key]
    text = entry.get(lang if lang in LANGS else "en") or entry["en"]
    return text.format(**fields) if fields else text
