"""The Transformer-block pages in a real browser: both languages, the race's start and stop."""

from __future__ import annotations

import re

import pytest

from .conftest import assert_clean, open_app, wait_idle

PAGES = ["block_anatomy", "depth_gradients", "training_race", "positional"]
N_PLOTS = "document.querySelectorAll('.js-plotly-plot .main-svg').length >= {n}"


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_block_pages_load(server, page, lang):
    for path in PAGES:
        open_app(page, f"{server}/{path}?lang={lang}&D=64")
        if path != "training_race":
            page.wait_for_function(N_PLOTS.format(n=2), timeout=120_000)
        assert_clean(page)
        if lang == "ja":
            assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", page.locator("h1").first.inner_text())


@pytest.mark.browser
def test_choosing_pre_ln_goes_into_the_url(server, page):
    open_app(page, f"{server}/block_anatomy?lang=en")
    page.get_by_text("pre-LN (modern LLMs)").click()
    wait_idle(page)
    assert "norm=pre" in page.url
    page.wait_for_function(N_PLOTS.format(n=3), timeout=60_000)
    assert_clean(page)


@pytest.mark.browser
def test_race_runs_then_stop_keeps_the_curves(server, page):
    open_app(page, f"{server}/training_race?lang=en&L=2&steps=40")
    page.get_by_role("button", name="Start the race").click()
    wait_idle(page, timeout=120_000)
    page.wait_for_function(N_PLOTS.format(n=1), timeout=60_000)
    assert page.get_by_text("final loss").count() == 2
    assert_clean(page)
    open_app(page, f"{server}/training_race?lang=en&L=12&steps=600")
    page.get_by_role("button", name="Start the race").click()
    page.get_by_text(re.compile(r"Step \d+ of 600")).wait_for(timeout=60_000)
    page.locator(".st-key-race_stop button").click()
    wait_idle(page, timeout=60_000)
    assert page.get_by_text("Stopped at step").count() == 1
    assert page.locator(".js-plotly-plot").count() >= 2  # the curves and the maps so far
    assert page.get_by_text(re.compile(r"Maps at step \d+ ")).count() == 1
    assert_clean(page)
    page.get_by_role("link", name="Positional encodings").click()  # same session
    wait_idle(page)
    page.wait_for_function(N_PLOTS.format(n=2), timeout=60_000)
    assert page.get_by_text("Run the training race to see").count() == 0
    assert_clean(page)
