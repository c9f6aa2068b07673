"""The real-model page in Chromium: the 72-head mosaic draws, a click on a head enlarges it,
and a click on a cell of the map shows the steps of that weight."""

import pytest

from .conftest import assert_clean, open_app, wait_idle

pytestmark = pytest.mark.browser

STEP_SHOWN = """t => Array.from(document.querySelectorAll('annotation'))
    .some(a => a.textContent.startsWith(t))"""
# where cell (row y, column x) of the enlarged map is on screen, by Plotly's own axes
MAP = ".st-key-map .js-plotly-plot"  # the enlarged map (st-key-<key> of its chart); the
# sink grid further down may draw first
CELL = f"""([y, x]) => {{ const gd = document.querySelector('{MAP}');
    const L = gd._fullLayout, box = gd.querySelector('.nsewdrag').getBoundingClientRect();
    return [box.left + L.xaxis.d2p(x), box.top + L.yaxis.d2p(y)]; }}"""


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_click_on_a_head_in_the_grid_enlarges_it(page, server, lang):
    open_app(page, f"{server}/real_model?lang={lang}")
    grid = page.locator(".mosaic")
    grid.locator("img").wait_for(timeout=90_000)  # the mosaic is one image
    assert grid.locator("img").evaluate("img => img.complete && img.naturalWidth > 0")
    heads = grid.locator("button.cell")
    assert heads.count() == 72
    title = "Layer 5, head 8" if lang == "en" else "層 5・ヘッド 8"  # layers and heads from 1
    assert heads.nth(4 * 12 + 7).get_attribute("title") == title
    heads.nth(4 * 12 + 7).click()
    page.wait_for_url("**layer=5**", timeout=30_000)
    wait_idle(page)
    assert "head=8" in page.url
    assert grid.locator("button.cell.selected").get_attribute("title") == title
    page.locator(".js-plotly-plot").first.get_by_text(title).wait_for(timeout=30_000)
    assert_clean(page)


def test_click_on_a_cell_shows_its_steps(page, server):
    open_app(page, f"{server}/real_model?lang=en&text=The+cat+sat+on+the+mat.")  # N = 8
    area = page.locator(MAP).locator(".nsewdrag")
    area.wait_for(timeout=90_000)
    area.scroll_into_view_if_needed()
    for i, j in ((4, 2), (7, 3)):  # neither 1: a default is left out of the URL
        page.wait_for_timeout(500)  # the map redrawn with the last pick outlined
        page.mouse.click(*page.evaluate(CELL, [i - 1, j - 1]))  # positions count from 0
        page.wait_for_url(f"**i={i}&j={j}**", timeout=30_000)
        page.wait_for_function(STEP_SHOWN, arg=f"s_{{{i},{j}}} =", timeout=30_000)
        wait_idle(page)
    assert_clean(page)


def test_head_view_draws_lines(page, server):
    open_app(page, f"{server}/real_model?lang=en&show=head&layer=3&head=4")
    page.locator(".js-plotly-plot").nth(1).locator("path.js-line").first.wait_for(timeout=90_000)
    assert_clean(page)
