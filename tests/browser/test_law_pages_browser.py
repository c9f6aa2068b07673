"""The √D and equivariance pages in a real browser: both languages, controls redraw charts."""

from __future__ import annotations

import re

import pytest

from .conftest import assert_clean, open_app, slider, wait_idle

PLOT_DATA = """() => Array.from(document.querySelectorAll('.js-plotly-plot'))
    .map(gd => JSON.stringify(gd.data.map(t => [t.type, t.x, t.y, t.z, t.name])))"""
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def wait_for_plots(page, n: int, timeout: float = 90_000) -> list[str]:
    page.wait_for_function(
        f"document.querySelectorAll('.js-plotly-plot .main-svg').length >= {n}", timeout=timeout
    )
    return page.evaluate(PLOT_DATA)


def metric(page, k: int) -> float:
    """The k-th metric's number (1,042 and 28.0% as 1042 and 28.0)."""
    text = page.locator("[data-testid=stMetricValue]").nth(k).inner_text()
    return float(text.strip("%").replace(",", ""))


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_saturation_page_redraws_when_D_moves(server, page, lang):
    open_app(page, f"{server}/saturation?lang={lang}")
    before = wait_for_plots(page, 4)
    assert_clean(page)
    assert bool(JAPANESE.search(page.locator("h1").first.inner_text())) == (lang == "ja")
    assert 50 < metric(page, 0) < 80  # Var(qᵀk) at the default D = 64
    thumb = slider(page, {"ja": "次元 D", "en": "Width D"}[lang])
    thumb.focus()
    for _ in range(4):
        thumb.press("ArrowRight")  # 64 → 1024
    page.wait_for_url(re.compile(r"D=1024"), timeout=30_000)
    wait_idle(page)
    page.wait_for_function(f"(old) => ({PLOT_DATA})()[0] !== old", arg=before[0], timeout=30_000)
    after = page.evaluate(PLOT_DATA)
    assert after[0] != before[0] and after[1] != before[1]  # histogram and example row
    assert 800 < metric(page, 0) < 1300
    assert_clean(page)


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_equivariance_page_breaks_with_positions(server, page, lang):
    open_app(page, f"{server}/equivariance?lang={lang}")
    before = wait_for_plots(page, 3)
    assert_clean(page)
    assert bool(JAPANESE.search(page.locator("h1").first.inner_text())) == (lang == "ja")
    assert metric(page, 0) < 1e-5  # no positional encoding: f(PX) = P f(X)
    radios = page.locator("[data-testid=stMain] [data-testid=stRadio]")
    radios.nth(1).get_by_text("8", exact=True).click()  # H = 8
    wait_idle(page)
    page.wait_for_function(f"(old) => ({PLOT_DATA})()[0] !== old", arg=before[0], timeout=30_000)
    assert metric(page, 0) < 1e-5
    page.goto(f"{server}/equivariance?lang={lang}&pe=sinusoidal&H=8")
    wait_idle(page, timeout=90_000)
    wait_for_plots(page, 3)
    assert metric(page, 0) > 1e-2
    assert_clean(page)


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_tour_link_opens_its_page_in_the_state_it_names(server, page, lang):
    """S3's link, clicked in the tour, opens the √D page at D = 1024 (a page link navigates
    inside the session: a D left behind by an earlier visit must not win over the link)."""
    open_app(page, f"{server}/saturation?lang={lang}&D=4")  # an earlier visit, D = 4
    wait_for_plots(page, 4)
    tour = "本文を順にたどる" if lang == "ja" else "Tour of the chapter"
    page.locator("[data-testid=stSidebarNav]").get_by_text(tour, exact=True).click()
    page.wait_for_url(re.compile(r"/tour"), timeout=30_000)
    wait_idle(page)
    state = "D = 1024、スケーリングなしとありの比較" if lang == "ja" else "D = 1024, unscaled"
    page.get_by_text(state).first.click()
    page.wait_for_url(re.compile(r"/saturation\?.*D=1024"), timeout=30_000)
    wait_idle(page, timeout=90_000)
    wait_for_plots(page, 4)
    assert 800 < metric(page, 0) < 1300  # Var(qᵀk) at D = 1024
    assert_clean(page)
