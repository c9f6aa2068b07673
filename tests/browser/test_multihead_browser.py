"""The multi-head page in Chromium: a click on a head's tile enlarges that head (and the
sidebar's share link follows), and a click on a cell of the enlarged map shows the steps of
that weight."""

import re

import pytest
from playwright.sync_api import expect

from .conftest import assert_clean, open_app, wait_idle

pytestmark = pytest.mark.browser

STEP_SHOWN = """t => Array.from(document.querySelectorAll('annotation'))
    .some(a => a.textContent.startsWith(t))"""
# where cell (row y, column x) of the first map is on screen, by Plotly's own axes
CELL = """([y, x]) => { const gd = document.querySelector('.js-plotly-plot');
    const L = gd._fullLayout, box = gd.querySelector('.nsewdrag').getBoundingClientRect();
    return [box.left + L.xaxis.d2p(x), box.top + L.yaxis.d2p(y)]; }"""


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_click_on_a_head_tile_enlarges_it(page, server, lang):
    open_app(page, f"{server}/multihead?lang={lang}")
    grid = page.locator(".mosaic")
    grid.locator("img").wait_for(timeout=90_000)  # every head is one image
    assert grid.locator("img").evaluate("img => img.complete && img.naturalWidth > 0")
    tiles = grid.locator("button.cell")
    assert tiles.count() == 8
    name = "head 6" if lang == "en" else "ヘッド 6"
    assert tiles.nth(5).get_attribute("title").startswith(name)
    tiles.nth(5).click()
    page.wait_for_url("**head=6**", timeout=30_000)
    wait_idle(page)
    assert grid.locator("button.cell.selected").get_attribute("title").startswith(name)
    page.locator(".js-plotly-plot").first.get_by_text(name).wait_for(timeout=30_000)
    # the tile's run was the fragment's alone: the share link still follows the address
    link = page.locator(".share input")
    expect(link).to_have_value(re.compile(r"/multihead\?.*head=6"), timeout=5_000)
    assert link.input_value() == page.url
    copy = page.locator(".share button")
    copy.click()
    expect(copy).to_have_text("Copied" if lang == "en" else "コピーしました")
    assert_clean(page)


def test_click_on_a_cell_shows_its_steps(page, server):
    text = "the cat sat on the mat because the mat was warm"  # N = 11 tokens
    open_app(page, f"{server}/multihead?lang=en&text={text.replace(' ', '+')}")
    area = page.locator(".js-plotly-plot").first.locator(".nsewdrag")
    area.wait_for(timeout=90_000)
    area.scroll_into_view_if_needed()
    for i, j in ((3, 5), (8, 2)):
        page.wait_for_timeout(500)  # the map redrawn with the last pick outlined
        page.mouse.click(*page.evaluate(CELL, [i - 1, j - 1]))  # positions count from 0
        page.wait_for_url(f"**i={i}&j={j}**", timeout=30_000)
        page.wait_for_function(STEP_SHOWN, arg=f"s_{{{i},{j}}} =", timeout=30_000)
        wait_idle(page)
    assert page.locator("h3").filter(has_text="Follow one weight").count() == 1
    assert_clean(page)
