"""The real-model page in Chromium: the 72-head mosaic draws, a click on a head enlarges it,
and a click on a cell of the map shows the steps of that weight (of heads combined, it picks
nothing)."""

import pytest
from playwright.sync_api import expect

from .conftest import assert_clean, labels_fitted, open_app, wait_idle

pytestmark = pytest.mark.browser

STEP_SHOWN = """t => Array.from(document.querySelectorAll('annotation'))
    .some(a => a.textContent.startsWith(t))"""
MAP = ".heatmap .plot"  # the enlarged map, a picture of its cells


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_click_on_a_head_in_the_grid_enlarges_it(page, server, lang):
    open_app(page, f"{server}/real_model?lang={lang}")
    grid = page.locator(".mosaic")
    grid.locator("img").wait_for(timeout=90_000)  # the mosaic is one image
    assert grid.locator("img").evaluate("img => img.complete && img.naturalWidth > 0")
    heads = grid.locator("button.cell")
    assert heads.count() == 72
    title = "Layer 5, head 8" if lang == "en" else "層\u00a05・ヘッド\u00a08"  # from 1, unbroken
    assert heads.nth(4 * 12 + 7).get_attribute("title") == title
    heads.nth(4 * 12 + 7).click()
    page.wait_for_url("**layer=5**", timeout=30_000)
    wait_idle(page)
    assert "head=8" in page.url
    assert grid.locator("button.cell.selected").get_attribute("title") == title
    expect(page.locator(".heatmap .title")).to_have_text(title, timeout=30_000)
    assert_clean(page)


def test_click_on_a_cell_shows_its_steps(page, server):
    open_app(page, f"{server}/real_model?lang=en&text=The+cat+sat+on+the+mat.")  # N = 9
    plot = page.locator(MAP)
    plot.wait_for(timeout=90_000)
    plot.scroll_into_view_if_needed()
    labels_fitted(page.locator(".heatmap"))  # the map laid out, to be clicked
    for i, j in ((4, 2), (7, 3)):  # neither 1: a default is left out of the URL
        box = plot.bounding_box()  # n × n cells: [CLS] the cat sat on the mat . [SEP]
        n = page.locator(".heatmap .row-labels .label").count()
        page.mouse.click(
            box["x"] + (j - 0.5) / n * box["width"], box["y"] + (i - 0.5) / n * box["height"]
        )
        page.wait_for_url(f"**i={i}&j={j}**", timeout=30_000)
        score = rf"\begin{{aligned}}s_{{{i},{j}}} &="  # the score line, one step a line
        page.wait_for_function(STEP_SHOWN, arg=score, timeout=30_000)
        wait_idle(page)
    assert_clean(page)


def test_head_view_draws_lines(page, server):
    open_app(page, f"{server}/real_model?lang=en&show=head&layer=3&head=4")
    page.locator(".js-plotly-plot").first.locator("path.js-line").first.wait_for(timeout=90_000)
    assert_clean(page)


def test_a_click_on_a_map_of_heads_combined_picks_nothing(page, server):
    url = f"{server}/real_model?lang=en&show=head&all_heads=true&text=The+cat+sat+on+the+mat."
    open_app(page, url)
    plot = page.locator(MAP)
    plot.wait_for(timeout=90_000)
    plot.scroll_into_view_if_needed()
    box = plot.bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.4, box["y"] + box["height"] * 0.6)
    expect(page.locator(".heatmap .tip")).to_be_visible()  # its value, on hover
    # the map of all heads is not pickable: its click handler asks for no run
    assert page.locator(".heatmap").evaluate("root => root.shown.pickable") is False
    page.mouse.click(box["x"] + box["width"] * 0.4, box["y"] + box["height"] * 0.6)
    runs = page.evaluate("() => window.__runs")
    assert runs["sent"] < runs["asked"], runs  # no rerun asked since the click
    assert "i=" not in page.url and "follow" not in page.url
    assert_clean(page)


# the gaps between the sink grid's neighbouring panel titles, in px, left to right
TITLE_GAPS = """() => [...document.querySelectorAll('.st-key-sinks .annotation-text')]
  .map(t => t.getBoundingClientRect())
  .sort((a, b) => a.left - b.left)
  .flatMap((b, k, r) => (k ? [b.left - r[k - 1].right] : []))"""
# the sink grid's head labels that overlap another
CROWDED_TICKS = """() => [...document.querySelectorAll('.st-key-sinks .xaxislayer-above text')]
  .map(t => [t.textContent, t.getBoundingClientRect()])
  .filter(([_, a], k, all) => all.some(([__, b], m) => m !== k && a.left < b.right - 1
    && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1))
  .map(([text]) => text)"""


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_presenting_at_1024_px_the_sink_panels_titles_and_head_labels_stand_apart(
    page, server, lang
):
    """On a 1024-px projector 「句読点 𝒫」 ran 3 px into 「その他のトークン ℛ」 (English: 1 px
    apart), and the turned head labels under each grid into each other ("H1H3H5…"): the
    long titles are on two lines and every fourth head is labelled when presenting."""
    page.set_viewport_size({"width": 1024, "height": 768})
    open_app(page, f"{server}/real_model?lang={lang}&present=true")
    page.locator(".st-key-sinks .annotation-text").first.wait_for(timeout=90_000)
    gaps = page.evaluate(TITLE_GAPS)
    assert len(gaps) == 3 and min(gaps) >= 8, gaps
    assert page.locator(".st-key-sinks .xaxislayer-above text").count() >= 4 * 3
    assert page.evaluate(CROWDED_TICKS) == []
