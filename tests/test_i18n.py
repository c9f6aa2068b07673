"""Every string exists in Japanese and English, with the same fields, and every key used exists."""

import re
import string
from pathlib import Path

import pytest

from attnviz.i18n import LANGS, catalogue, t
from attnviz.positional import KINDS, MODES
from attnviz.scoring import SCORES

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [*ROOT.glob("pages/*/*.py"), *ROOT.glob("ui/*.py"), ROOT / "app.py"]


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_entry_has_both_languages_with_the_same_fields():
    assert len(catalogue()) > 50
    for key, entry in catalogue().items():
        assert set(entry) == set(LANGS), f"{key}: languages {sorted(entry)}"
        assert all(entry[lang].strip() for lang in LANGS), f"{key}: empty string"
        assert fields(entry["en"]) == fields(entry["ja"]), f"{key}: fields differ"


SAME_IN_BOTH = {"real_model.default_text"}  # sample input for an English-only model


def test_japanese_entries_are_japanese():
    japanese = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
    prose = [
        k
        for k, e in catalogue().items()
        if k not in SAME_IN_BOTH and len(re.findall(r"\b[A-Za-z]{3,}\b", e["en"])) >= 4
    ]
    assert all(japanese.search(catalogue()[k]["ja"]) for k in prose), [
        k for k in prose if not japanese.search(catalogue()[k]["ja"])
    ]


def test_every_literal_key_used_by_the_app_exists():
    used = set()
    for path in SOURCES:
        used |= set(re.findall(r'\btr\(\s*"([\w.]+)"', path.read_text()))
    assert len(used) > 30
    missing = sorted(k for k in used if k not in catalogue())
    assert not missing, missing


@pytest.mark.parametrize(
    "names,prefix",
    [
        (SCORES, "names."),
        (KINDS, "names.pe_"),
        (MODES, "names.mode_"),
        (("post", "pre", "none"), "names.norm_"),
    ],
)
def test_option_names_are_translated(names, prefix):
    for name in names:
        for lang in LANGS:
            assert t(prefix + name, lang)
