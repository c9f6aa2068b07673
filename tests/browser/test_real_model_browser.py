"""The real-model page in Chromium: the 72-head mosaic draws, and a click on a head enlarges it."""

import pytest

from .conftest import assert_clean, open_app, wait_idle

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_click_on_a_head_in_the_grid_enlarges_it(page, server, lang):
    open_app(page, f"{server}/real_model?lang={lang}")
    grid = page.locator(".mosaic")
    grid.locator("img").wait_for(timeout=90_000)  # the mosaic is one image
    assert grid.locator("img").evaluate("img => img.complete && img.naturalWidth > 0")
    heads = grid.locator("button.cell")
    assert heads.count() == 72
    title = "Layer 4, head 7" if lang == "en" else "層 4・ヘッド 7"
    assert heads.nth(4 * 12 + 7).get_attribute("title") == title
    heads.nth(4 * 12 + 7).click()
    page.wait_for_url("**layer=4**", timeout=30_000)
    wait_idle(page)
    assert "head=7" in page.url
    assert grid.locator("button.cell.selected").get_attribute("title") == title
    page.locator(".js-plotly-plot").first.get_by_text(title).wait_for(timeout=30_000)
    assert_clean(page)


def test_head_view_draws_lines(page, server):
    open_app(page, f"{server}/real_model?lang=en&show=head&layer=2&head=3")
    page.locator(".js-plotly-plot").nth(1).locator("path.js-line").first.wait_for(timeout=90_000)
    assert_clean(page)
