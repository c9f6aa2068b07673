"""Japanese type on every page: emphasis is bold, never italic (Japanese fonts have no
italics; a browser slants the glyphs instead, as the tour's questions once were)."""

import re

import pytest

from .helpers import PAGES, assert_clean, run_page

MATH = re.compile(r"\$\$.*?\$\$|\$[^$]*\$", re.S)
ITALIC = re.compile(r"(?<![*\w\\])([*_])(?![*_\s])[^*_\n]+?(?<![\s*_])\1(?![*_\w])")
OPEN = {"multihead": dict(follow="true", qkview="true"), "real_model": dict(follow="true")}


@pytest.mark.parametrize("page", sorted(PAGES))
def test_no_japanese_text_is_set_in_italics(page):
    at = run_page(page, lang="ja", **OPEN.get(page, {}))
    assert_clean(at)
    texts = [e.value for kind in ("markdown", "caption", "info", "warning") for e in at.get(kind)]
    assert texts, page
    slanted = [m.group(0) for text in texts for m in ITALIC.finditer(MATH.sub("", text))]
    assert not slanted, (page, slanted)
