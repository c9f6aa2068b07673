"""The notes under a picture (ui/common.js's drawNotes) in Chromium: each stays one copy
however often the picture is redrawn. The components draw in shadow roots, where a box
looked up with ``:scope`` was never found, and each change of the enlarged head added a
copy of every note under the tiles and the map (AppTest draws no components: only a
browser sees this)."""

from collections import Counter

import pytest
from playwright.sync_api import expect

from attnviz.i18n import t

from .conftest import assert_clean, open_app, slider, wait_idle

pytestmark = pytest.mark.browser


def notes(page) -> Counter:
    """Every note paragraph on the page (Playwright's locators pierce shadow roots)."""
    return Counter(page.locator(".notes p").all_inner_texts())


def change_head_five_times(page, tiles: str, tile_index, head_label: str, expected: list[str]):
    """Five changes of the enlarged head, by a tile's click and by the head slider in
    turn; after each, every note of ``expected`` is on the page exactly once."""
    cells, picture = page.locator(tiles), page.locator(".heatmap .plot img")
    for k in range(5):
        shown = picture.get_attribute("src")
        pressed = cells.evaluate_all("cs => cs.findIndex(c => c.ariaPressed === 'true')")
        if k % 2 == 0:
            cells.nth(tile_index(k)).click()
        else:
            thumb = slider(page, head_label)
            thumb.focus()
            thumb.press("ArrowRight")
        wait_idle(page)
        # the components have drawn this run's head (the notes come with each drawing): the
        # grid its tile pressed, the map a new head's picture (the first click, on head 1,
        # keeps the head shown)
        head = tile_index(k) if k % 2 == 0 else pressed + 1
        expect(cells.nth(head)).to_have_attribute("aria-pressed", "true")
        if head != pressed:
            expect(picture).not_to_have_attribute("src", shown)
        seen = notes(page)
        assert max(seen.values()) == 1, f"change {k + 1}: a note drawn twice: {seen}"
        for note in expected:
            assert seen[note] == 1, f"change {k + 1}: {note[:20]}… seen {seen[note]} times"


def test_multihead_notes_stay_one_copy(page, server):
    page.set_viewport_size({"width": 1280, "height": 720})
    open_app(page, f"{server}/multihead?lang=ja&present=true")
    page.locator(".mosaic img").wait_for(timeout=90_000)
    expected = [t("multihead.grid_caption", "ja"), t("multihead.map_help", "ja")]
    # tiles 1, 4, 7 by click (0-based 0, 3, 6), the slider one step after each
    change_head_five_times(
        page, ".mosaic button.cell", lambda k: 3 * k // 2, t("multihead.big_head", "ja"), expected
    )
    assert_clean(page)


def test_real_model_notes_stay_one_copy(page, server):
    open_app(page, f"{server}/real_model?lang=ja")
    page.locator(".mosaic img").wait_for(timeout=90_000)
    expected = [t("real_model.map_help", "ja")]
    # layer 3's heads (the default layer): 1, 4, 7 by click, the slider one step after each
    change_head_five_times(
        page,
        ".mosaic button.cell",
        lambda k: 2 * 12 + 3 * k // 2,
        t("real_model.head", "ja"),
        expected,
    )
    assert_clean(page)
