"""The training race in a real browser: maps before the start, frames appearing while the
models learn, and the step slider replaying them."""

from __future__ import annotations

import re

import pytest

from attnviz.i18n import t

from .conftest import assert_clean, open_app, wait_idle

N_PLOTS = "document.querySelectorAll('.js-plotly-plot .main-svg').length >= {n}"


def maps_at(step: int) -> str:
    """The caption over the maps of ``step``, in English."""
    return t("training_race.maps_at", "en", t=step)


@pytest.mark.browser
def test_start_shows_frames_and_the_step_slider_moves_through_them(server, page):
    open_app(page, f"{server}/training_race?lang=en&L=4&steps=200")
    page.wait_for_function(N_PLOTS.format(n=1), timeout=120_000)  # the maps at initialisation
    assert page.get_by_text(maps_at(0)).count() == 1
    page.get_by_role("button", name="Start the race").click()
    live = page.get_by_text(re.compile(r"Maps at step [1-9]\d* "))  # frames while it learns
    live.first.wait_for(timeout=120_000)
    page.get_by_text(re.compile(r"Step \d+ of 200")).wait_for(timeout=60_000)
    wait_idle(page, timeout=180_000)
    page.get_by_text(maps_at(200)).wait_for(timeout=30_000)
    page.wait_for_function(N_PLOTS.format(n=3), timeout=60_000)  # curves, maps, scores
    thumb = page.locator(".st-key-race_frame input[type=range]")
    thumb.focus()
    page.keyboard.press("Home")
    page.get_by_text(maps_at(0)).wait_for(timeout=30_000)
    page.keyboard.press("ArrowRight")
    page.get_by_text(maps_at(1)).wait_for(timeout=30_000)
    wait_idle(page)
    assert page.get_by_text("final loss").count() == 2  # the rest of the page stays
    assert_clean(page)
