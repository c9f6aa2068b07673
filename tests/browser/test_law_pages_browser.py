"""The √D and equivariance pages in a real browser: their controls redraw the charts, and a
tour link opens its page in the state it names."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from playwright.sync_api import expect

from attnviz.i18n import plain, t
from attnviz.lessons import equivariance, tour
from attnviz.text import token_labels

from .conftest import assert_clean, open_app, slider, wait_idle

PLOT_DATA = """() => Array.from(document.querySelectorAll('.js-plotly-plot'))
    .map(gd => JSON.stringify(gd.data.map(t => [t.type, t.x, t.y, t.z, t.name])))"""


def wait_for_plots(page, n: int, timeout: float = 90_000) -> list[str]:
    page.wait_for_function(
        f"document.querySelectorAll('.js-plotly-plot .main-svg').length >= {n}", timeout=timeout
    )
    return page.evaluate(PLOT_DATA)


def metric_text(page) -> list[str]:
    """The values of the page's labelled values (ui.metrics), as shown."""
    return page.locator(".attnviz-metrics td").all_inner_texts()


def thumb_value(page, label: str):
    """The value shown on the thumb of the slider labelled ``label``."""
    sliders = page.locator("[data-testid=stSlider]").filter(has_text=label)
    return sliders.locator("[data-testid=stSliderThumbValue]")


@pytest.mark.browser
def test_saturation_page_redraws_when_D_moves(server, page):
    """Four key presses on D's slider: its thumb, the address, the charts and the metrics
    follow (what they hold, Var(qᵀk) = D among it, is the lesson's and AppTest's to check)."""
    open_app(page, f"{server}/saturation?lang=ja")
    before = wait_for_plots(page, 4)
    shown = metric_text(page)
    assert_clean(page)
    thumb = slider(page, "次元 D")
    thumb.focus()
    for _ in range(4):
        thumb.press("ArrowRight")  # 64 → 1024
    page.wait_for_url(re.compile(r"D=1024"), timeout=30_000)
    wait_idle(page)
    page.wait_for_function(f"(old) => ({PLOT_DATA})()[0] !== old", arg=before[0], timeout=30_000)
    after = page.evaluate(PLOT_DATA)
    assert after[0] != before[0] and after[1] != before[1]  # histogram and example row
    expect(thumb_value(page, "次元 D")).to_have_text("1024")
    assert metric_text(page) != shown
    assert_clean(page)


@pytest.mark.browser
def test_equivariance_page_redraws_when_a_radio_is_clicked(server, page):
    """A click on H = 8 redraws the maps and goes into the address (whether f(PX) = P f(X)
    holds is the lesson's to check, and that the page shows its error AppTest's)."""
    open_app(page, f"{server}/equivariance?lang=en")
    before = wait_for_plots(page, 3)
    assert_clean(page)
    radios = page.locator("[data-testid=stMain] [data-testid=stRadio]")
    radios.nth(1).get_by_text("8", exact=True).click()  # H = 8
    page.wait_for_url(re.compile(r"H=8"), timeout=30_000)
    wait_idle(page)
    page.wait_for_function(f"(old) => ({PLOT_DATA})()[0] !== old", arg=before[0], timeout=30_000)
    assert_clean(page)


@pytest.mark.browser
def test_a_tour_link_opens_its_page_in_the_state_it_names(server, page):
    """S3's link, clicked in the tour, opens the √D page at the D it names (a page link
    navigates inside the session: a D left behind by an earlier visit must not win over it)."""
    stop = tour.stop("S3", "ja", 0)
    D = stop.query()["D"]
    open_app(page, f"{server}/saturation?lang=ja&D=4")  # an earlier visit, D = 4
    wait_for_plots(page, 4)
    page.locator("[data-testid=stSidebarNav]").get_by_text("本文を順にたどる", exact=True).click()
    page.wait_for_url(re.compile(r"/tour"), timeout=30_000)
    wait_idle(page)
    page.locator("[data-testid=stMain] [role=radiogroup] label").filter(has_text="S3").click()
    wait_idle(page)
    page.get_by_text(plain(stop.state)).first.click()
    page.wait_for_url(re.compile(rf"/saturation\?.*D={D}"), timeout=30_000)
    wait_idle(page, timeout=90_000)
    wait_for_plots(page, 4)
    expect(thumb_value(page, "次元 D")).to_have_text(D)  # the link's D, not the earlier 4
    assert re.search(rf"D={D}\b", page.url)  # and the page kept it
    assert_clean(page)


@pytest.mark.browser
def test_equivariance_csvs_say_what_their_rows_and_columns_are(server, page):
    """The map A of head 1 saved as CSV in Japanese: its corner names queries and keys (blank,
    it read as "Unnamed: 0"), and its numbers are the lesson's."""
    text = "the cat sat on the mat"
    open_app(page, f"{server}/equivariance?lang=ja&text={text.replace(' ', '+')}")
    wait_for_plots(page, 3)
    what = t("equivariance.dl_A", "ja", h=1)
    with page.expect_download() as saved:
        # a space before を after a Latin letter or sign, as the app writes 行 i を
        page.get_by_role("button", name=t("app.download_csv", "ja", name=f"{what} ")).click()
    rows = Path(saved.value.path()).read_text(encoding="utf-8-sig").splitlines()
    r = equivariance.run(equivariance.Config(text=text))
    labels = token_labels(r.tokens, escape=False)
    assert rows[0].split(",") == [t("app.csv_corner", "ja"), *labels]  # rows: queries
    weights = np.array([[float(v) for v in row.split(",")[1:]] for row in rows[1:]])
    np.testing.assert_allclose(weights, r.A[0], atol=1e-7)
    assert_clean(page)
