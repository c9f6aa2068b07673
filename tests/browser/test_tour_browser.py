"""The tour in Chromium: S1 and S14 answered in Japanese with the keyboard show the
example's values and the question first, then the verdict and the figure; a page opened
from a stop lands at the stop's section, and Back returns to that stop in the mode it was
left in; all sixteen stops walked one after another (timed); the way back kept through a
reload."""

from __future__ import annotations

import re
import time

import pytest

from attnviz.i18n import plain, t
from attnviz.lessons import tour

from .conftest import assert_clean, open_app, wait_idle

FORM = "[data-testid=stMain] [data-testid=stForm]"
ALERT = "[data-testid=stMain] [data-testid=stAlert]"
PLOT = "[data-testid=stMain] .js-plotly-plot"
SIZES = """() => Object.fromEntries(
  [["prose", ".stMarkdown p"], ["link", "[data-testid=stPageLink] p"]].map(([k, sel]) =>
    [k, getComputedStyle(document.querySelector(`[data-testid=stMain] ${sel}`)).fontSize]))"""


def answer_with_keys(page, moves: int) -> None:
    """Focus the first choice, move ``moves`` choices on with the arrow key, Tab to the
    button and press Enter: the way a keyboard reaches the answer."""
    page.locator(f"{FORM} input[type=radio]").first.focus()
    page.keyboard.press("Space")  # the focused choice is picked
    for _ in range(moves):
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    wait_idle(page)


def exercise_of(claim: str, lang: str, seed: int) -> tour.Exercise:
    a = tour.ASKS[claim]
    cfg = a.config(lang, seed)
    return a.ask(cfg, a.run(cfg), lang, seed)


@pytest.mark.browser
@pytest.mark.parametrize("claim", ["S1", "S14"])
def test_a_stop_answered_in_japanese_shows_its_values_then_its_verdict_and_figure(
    server, page, claim
):
    """The example's values and the question are on the page before any figure; answered
    right with the keyboard, the verdict and the figure follow and the stop is marked ✓."""
    ex = exercise_of(claim, "ja", 0)
    open_app(page, f"{server}/tour?lang=ja&stop={claim}&example=0")
    page.locator(FORM).wait_for(timeout=120_000)  # S14 computes its stacks first
    text = plain(page.locator("[data-testid=stMain]").inner_text())
    asked = plain(ex.question)[:25]
    assert asked in text, (asked, text)
    if ex.given:  # the values come before the question that reasons from them
        values = plain(ex.given)[:25]
        assert values in text and text.index(values) < text.index(asked), text
    assert page.locator(PLOT).count() == 0  # nothing drawn before the answer
    answer_with_keys(page, [c.key for c in ex.choices].index(ex.right))
    page.wait_for_selector(PLOT, timeout=60_000)
    verdict = plain(page.locator(ALERT).first.inner_text())
    assert verdict.startswith(plain(t("tour.right", "ja", answer=ex.label(ex.right)))), verdict
    assert page.locator(PLOT).count() == 1
    assert f"{claim} ✓" in page.locator("[data-testid=stMain] [role=radiogroup]").first.inner_text()
    assert_clean(page)


@pytest.mark.browser
def test_a_page_opened_from_a_stop_lands_at_its_section_and_back_returns_to_the_stop(server, page):
    """On a projector (1280 × 720, presenting): S9's link opens the scoring page at its M-query
    section; the browser's Back returns to the tour at S9, still presenting."""
    page.set_viewport_size({"width": 1280, "height": 720})
    open_app(page, f"{server}/tour?lang=ja&present=true&stop=S9&example=1")
    page.locator("[data-testid=stMain] [data-testid=stPageLink]").first.wait_for()
    sizes = page.evaluate(SIZES)
    assert sizes["link"] == sizes["prose"], sizes  # the link as large as the text around it
    page.locator("[data-testid=stPageLink]").filter(has_text="関連性の関数").click()
    page.wait_for_url(re.compile(r"/scoring\?.*present=true"), timeout=30_000)
    wait_idle(page, timeout=90_000)
    heading = page.locator("[data-testid=stMain] h3").filter(has_text="M 個の query")
    heading.wait_for(timeout=30_000)
    page.wait_for_function(
        "() => { const h = [...document.querySelectorAll('[data-testid=stMain] h3')]"
        ".find(e => e.textContent.includes('M 個の query'));"
        " const y = h && h.getBoundingClientRect().top; return h && y >= -5 && y < 360; }",
        timeout=30_000,
    )
    back = page.locator("[data-testid=stPageLink]").filter(has_text="本文の S9 に戻る")
    assert back.count() == 1
    page.go_back()
    page.wait_for_url(re.compile(r"/tour\?"), timeout=30_000)
    wait_idle(page)
    assert "stop=S9" in page.url and "present=true" in page.url and "example=1" in page.url
    page.get_by_text("S9", exact=True).first.wait_for(timeout=30_000)
    # presenting, the list of stops is in the sidebar
    stops = page.locator("[data-testid=stSidebar] [role=radiogroup]").filter(has_text="S16")
    checked = stops.locator("input:checked")
    assert checked.evaluate("e => e.closest('label').innerText").strip() == "S9"
    toggle = page.locator("[data-testid=stSidebar] [data-testid=stCheckbox] input").first
    assert toggle.is_checked()  # presentation mode, as it was left
    assert_clean(page)


@pytest.mark.browser
def test_walking_all_sixteen_stops(server, page, record_property):
    """Each stop answered (its first choice) and its figure drawn, then on to the next; the
    time taken is recorded as the property ``walk_seconds``."""
    open_app(page, f"{server}/tour?lang=ja")
    start = time.monotonic()
    for k in range(1, 17):
        page.locator(f"{FORM} [role=radiogroup] label").first.click()
        page.locator(f"{FORM} button").click()
        wait_idle(page, timeout=120_000)
        page.wait_for_selector(PLOT, timeout=120_000)
        assert page.locator(ALERT).count() >= 1, f"S{k}: no verdict"
        page.get_by_role("button", name=t("tour.next", "ja")).click()
        wait_idle(page, timeout=120_000)
    seconds = time.monotonic() - start
    record_property("walk_seconds", round(seconds, 1))
    print(f"walked 16 stops in {seconds:.1f} s")
    assert page.get_by_text(t("tour.summary_title", "ja")).count() == 1
    assert_clean(page)


# S9's section on the scoring page, at the top of the window: where its link lands
LANDED = (
    "() => { const h = [...document.querySelectorAll('[data-testid=stMain] h3')]"
    ".find(e => e.textContent.includes('M 個の query'));"
    " const y = h && h.getBoundingClientRect().top; return h && y >= -5 && y < 360; }"
)


@pytest.mark.browser
def test_a_page_opened_from_a_stop_keeps_its_way_back_through_a_reload(server, page):
    """The stop's link carries the stop (``from=S9-1``): reloaded, the page (a new session)
    still links back to S9 on example 1, and lands at the stop's section again."""
    open_app(page, f"{server}/tour?lang=ja&stop=S9&example=1")
    page.locator("[data-testid=stPageLink]").filter(has_text="関連性の関数").click()
    page.wait_for_url(re.compile(r"/scoring\?.*from=S9-1"), timeout=30_000)
    wait_idle(page, timeout=90_000)
    back = page.locator("[data-testid=stMain] [data-testid=stPageLink]").filter(
        has_text="本文の S9 に戻る"
    )
    back.wait_for(timeout=30_000)
    page.reload()
    page.wait_for_selector("[data-testid=stMain] h1", timeout=90_000)
    wait_idle(page, timeout=90_000)
    back.wait_for(timeout=30_000)
    assert back.count() == 1 and "from=S9-1" in page.url
    page.wait_for_function(LANDED, timeout=30_000)
    href = back.locator("a").get_attribute("href")
    assert "stop=S9" in href and "example=1" in href, href
    assert_clean(page)
