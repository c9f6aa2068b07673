"""The home page: one line per page of the navigation and the device, in both languages."""

import pytest

from .helpers import PAGES, assert_clean, run_page


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_home_lists_every_page_and_the_device(lang):
    at = run_page("home", lang=lang)
    assert_clean(at)
    items = [m.value for m in at.markdown if m.value.startswith("- **")]
    assert len(items) == len(PAGES) - 1  # every page but home itself
    assert not at.get("plotly_chart") and not at.latex
    assert any("PyTorch" in c.value for c in at.caption)
    assert items[0].startswith("- **" + ("本文を順にたどる" if lang == "ja" else "Tour"))
