"""The enlarged map's Japanese labels in Chromium: every token of the Japanese example
sentence is named in full beside its row and under its column, and the axis titles too,
on a desk screen and on a projector (no label hidden by its cell or past the picture)."""

import re

import pytest

from attnviz.i18n import t
from attnviz.text import token_labels, tokenize

from .conftest import assert_clean, labels_fitted, open_app

pytestmark = pytest.mark.browser

# each label: its text, and how much of it its box hides (scroll size past client size),
# and whether it lies inside the component's box
LABELS = """root => { const frame = root.getBoundingClientRect();
  const inside = r => r.left >= frame.left - 1 && r.right <= frame.right + 1
    && r.top >= frame.top - 1 && r.bottom <= frame.bottom + 1;
  return [...root.querySelectorAll('.row-labels .label, .col-labels .label, .x-title, .y-title')]
    .map(n => ({ text: n.textContent, cls: n.className,
      hidden: Math.max(n.scrollWidth - n.clientWidth, n.scrollHeight - n.clientHeight),
      inside: inside(n.getBoundingClientRect()) })); }"""


@pytest.mark.parametrize(
    ("width", "present"),
    [(1400, False), (1024, False), (1280, True)],
    ids=["desk", "narrow", "projector"],
)
def test_japanese_token_labels_are_never_cut(page, server, width, present):
    page.set_viewport_size({"width": width, "height": 900})
    open_app(page, f"{server}/multihead?lang=ja" + ("&present=true" if present else ""))
    root = page.locator(".heatmap")
    root.locator(".plot").wait_for(timeout=90_000)
    labels_fitted(root)
    labels = root.evaluate(LABELS)
    tokens = tokenize(t("multihead.default_text", "ja"))
    assert any(ord(c) > 0x3000 for c in "".join(tokens))  # Japanese words, not Latin
    names = token_labels(tokens, escape=False)
    rows = [x["text"] for x in labels if "label" in x["cls"]]
    assert rows == names + names  # every row, then every column, each named in full
    titles = {x["text"] for x in labels if "title" in x["cls"]}
    shown = {re.sub("</?sub>", "", t(f"multihead.{axis}", "ja")) for axis in ("key", "query")}
    assert titles == shown  # their <sub> set as a subscript
    cut = [x for x in labels if x["hidden"] > 1 or not x["inside"]]
    assert not cut, cut
    assert_clean(page)
