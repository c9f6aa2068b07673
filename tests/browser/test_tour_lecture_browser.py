"""The tour in a lecture, in Chromium: on a 1280 × 720 projector, presenting in Japanese,
every stop's choices fit the first screen before the reveal and the figure's top after it,
with no chart text under 18 px; a phone that opens a stop's link lands on its question; a
keyboard reaches the first choice in at most five Tabs, ↓ picks the first choice, the answer
moves the focus to the verdict, the focus ring is visible, and the stop stays marked."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from attnviz.i18n import t
from attnviz.lessons import tour

from .conftest import assert_clean, open_app, wait_idle

MAIN = "[data-testid=stMain]"
PLOT = f"{MAIN} .js-plotly-plot"
SCREEN = 720
# the smallest font of any text a chart in the main column draws (Plotly's SVG text)
SMALLEST_CHART_TEXT = """() => Math.min(...[...document.querySelectorAll(
  '[data-testid=stMain] .js-plotly-plot text')].filter((e) => e.textContent.trim())
  .map((e) => parseFloat(getComputedStyle(e).fontSize)))"""
# a box's top and bottom on the page (not the viewport): what the first screen shows
PAGE_BOX = (
    "(e) => { const b = e.getBoundingClientRect(); return [b.top + scrollY, b.bottom + scrollY]; }"
)


@pytest.mark.browser
def test_every_stop_fits_a_720_line_projector(server, page):
    page.set_viewport_size({"width": 1280, "height": SCREEN})
    tops = {}
    for claim in tour.CLAIMS:
        open_app(page, f"{server}/tour?lang=ja&present=true&stop={claim}&example=0")
        page.locator(f"{MAIN} .st-key-tour_reveal button").wait_for(timeout=120_000)
        # the choices, in two columns (the only columns of the stop, presenting)
        boxes = page.locator(f"{MAIN} [data-testid=stColumn] .stMarkdown p").all()
        assert len(boxes) >= 3, claim
        for box in boxes:
            _, bottom = box.evaluate(PAGE_BOX)
            assert bottom <= SCREEN, (claim, box.inner_text(), bottom)
        page.locator(f"{MAIN} .st-key-tour_reveal button").click()
        wait_idle(page, timeout=120_000)
        page.wait_for_selector(PLOT, timeout=120_000)
        page.wait_for_function(
            "() => document.querySelector('[data-testid=stMain] .js-plotly-plot text')"
        )
        top, _ = page.locator(PLOT).first.evaluate(PAGE_BOX)
        tops[claim] = round(top)
        assert top <= SCREEN, (claim, top)
        smallest = page.evaluate(SMALLEST_CHART_TEXT)
        assert smallest >= 18, (claim, smallest)
        assert_clean(page)
    print("figure tops after reveal (px):", tops)


@pytest.mark.browser
def test_a_phone_that_opens_a_stop_s_link_lands_on_its_question(server, page):
    page.set_viewport_size({"width": 390, "height": 844})
    open_app(page, f"{server}/tour?lang=ja&stop=S7&example=0")
    question = page.locator(f"{MAIN} .st-key-tour_question")
    question.wait_for(timeout=60_000)
    page.wait_for_function(
        "() => { const b = document.querySelector('[data-testid=stMain] .st-key-tour_question')"
        ".getBoundingClientRect(); return b.top >= 0 && b.top < innerHeight; }",
        timeout=10_000,
    )
    # the list of stops comes after the stop, and the introduction is folded
    stops = page.locator(f"{MAIN} [role=radiogroup]").filter(has_text="S16")
    assert stops.evaluate(PAGE_BOX)[0] > question.evaluate(PAGE_BOX)[0]
    assert page.get_by_text(t("tour.intro", "ja")[:20]).is_hidden()
    assert_clean(page)


def _focused(page) -> str:
    return page.evaluate(
        "() => { const e = document.activeElement; return e.id || e.type || e.tagName; }"
    )


@pytest.mark.browser
def test_a_keyboard_reaches_the_question_answers_it_and_keeps_its_place(server, page):
    open_app(page, f"{server}/tour?lang=ja&stop=S3&example=0")
    page.locator(f"{MAIN} [data-testid=stForm]").wait_for(timeout=60_000)
    # ui/tour_keys.js puts its skip link first in the page once its component is drawn
    expect(page.locator("body > #attnviz-skip")).to_have_text(t("tour.skip", "ja"))
    tabs = 0
    while _focused(page) != "radio" and tabs < 5:
        page.keyboard.press("Tab")
        tabs += 1
        if _focused(page) == "attnviz-skip":
            label = page.evaluate("() => document.activeElement.textContent")
            assert label == t("tour.skip", "ja")
            page.keyboard.press("Enter")  # the skip link leads to the first choice
    assert _focused(page) == "radio", f"no choice after {tabs} Tabs"
    print(f"first choice after {tabs} Tab(s)")
    radios = page.locator(f"{MAIN} [data-testid=stForm] input[type=radio]")
    page.keyboard.press("ArrowDown")  # as the hint says: ↓ picks the first choice
    page.wait_for_function(
        "() => document.querySelector("
        "'[data-testid=stMain] [data-testid=stForm] input[type=radio]').checked"
    )
    assert radios.first.is_checked()
    # the focus ring on the focused choice: at least 2 px, 3:1 against the page
    ring = page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement.closest('label'));"
        " return [parseFloat(s.outlineWidth), s.outlineColor, s.outlineStyle]; }"
    )
    assert ring[0] >= 2 and ring[2] != "none", ring
    assert contrast(ring[1], "rgb(255, 255, 255)") >= 3, ring
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    wait_idle(page)
    page.wait_for_function(
        "() => document.activeElement.closest('.st-key-tour_verdict') !== null", timeout=20_000
    )
    # the stop shown stays marked in the list, with its ✓ or ✗
    checked = page.locator(f"{MAIN} [role=radiogroup] input:checked").first
    assert checked.evaluate("e => e.closest('label').innerText").strip().startswith("S3 ")
    assert_clean(page)


def contrast(a: str, b: str) -> float:
    """WCAG's contrast ratio of two CSS rgb() colours."""

    def luminance(colour: str) -> float:
        parts = [float(x) / 255 for x in colour[colour.index("(") + 1 : -1].split(",")[:3]]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in parts]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)
