"""Plotly's toolbar (the mode bar) covers no chart's title, on a laptop (1280 × 720) and a
phone (390 × 844): it sits in a strip of its own above each chart (ui/app.css), on every
page; here pages with charts and tour stops with a figure, whose titles it covered
(S3 and S14 on a laptop, S7 on a phone)."""

from __future__ import annotations

import pytest

from .conftest import assert_clean, charts_drawn, open_app, wait_idle

pytestmark = pytest.mark.browser

LAPTOP, PHONE = {"width": 1280, "height": 720}, {"width": 390, "height": 844}
FORM = "[data-testid=stMain] [data-testid=stForm]"
PLOT = "[data-testid=stMain] .js-plotly-plot"
# each chart's toolbar, its titles (a chart's, its subtitle, its panels'), and the figure
BOXES = """plots => plots.map(p => {
  const box = e => { const r = e.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
  const all = sel => [...p.querySelectorAll(sel)].map(box).filter(b => b.right > b.left);
  return {bar: box(p.querySelector('.modebar')), figure: box(p.querySelector('.main-svg')),
          titles: all('.gtitle, .gtitle-subtitle, .annotation-text, .legendtext'),
          chart: box(p.closest('[data-testid=stElementContainer]'))};
})"""


def meets(a: dict, b: dict) -> bool:
    return (
        a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and (b["top"] < a["bottom"])
    )


def check_toolbars(page, where: str) -> int:
    """Every chart's toolbar lies above its figure, over none of its titles, within the
    page's width and the strip above the chart; returns how many charts there are."""
    page.locator(PLOT).first.wait_for(timeout=120_000)
    charts_drawn(page)  # the charts laid out (Plotly draws after the run)
    charts = page.locator(PLOT).evaluate_all(BOXES)
    width = page.viewport_size["width"]
    for k, c in enumerate(charts):
        bar = c["bar"]
        assert not [t for t in c["titles"] if meets(bar, t)], (where, k, bar, c["titles"])
        assert bar["bottom"] <= c["figure"]["top"] + 0.5, (where, k, bar, c["figure"])
        assert bar["top"] >= c["chart"]["top"] - 28.5, (where, k, bar, c["chart"])
        assert 0 <= bar["left"] and bar["right"] <= width, (where, k, bar)  # noqa: SIM300
    return len(charts)


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
@pytest.mark.parametrize("path", ["saturation", "scoring", "depth_gradients"])
def test_no_toolbar_covers_a_title_on_a_page(server, browser, size, path):
    ctx = browser.new_context(viewport=size, locale="ja-JP")
    page = ctx.new_page()
    page.errors = []
    try:
        open_app(page, f"{server}/{path}?lang=ja")
        assert check_toolbars(page, path) >= 1
        assert_clean(page)
    finally:
        ctx.close()


@pytest.mark.parametrize(
    ("size", "claim"),
    [(LAPTOP, "S3"), (LAPTOP, "S14"), (PHONE, "S7"), (PHONE, "S3"), (LAPTOP, "S12")],
    ids=["laptop-S3", "laptop-S14", "phone-S7", "phone-S3", "laptop-S12"],
)
def test_no_toolbar_covers_a_title_on_a_tour_stop_s_figure(server, browser, size, claim):
    ctx = browser.new_context(viewport=size, locale="ja-JP")
    page = ctx.new_page()
    page.errors = []
    try:
        open_app(page, f"{server}/tour?lang=ja&stop={claim}&example=0")
        page.locator(FORM).wait_for(timeout=120_000)
        page.locator(f"{FORM} [role=radiogroup] label").first.click()
        page.locator(f"{FORM} button").click()
        wait_idle(page, timeout=120_000)
        assert check_toolbars(page, claim) == 1
        assert_clean(page)
    finally:
        ctx.close()
