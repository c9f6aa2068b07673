"""The switch between weights and contributions ‖a_ij f_h(x_j)‖ in Chromium (ja, 1400 ×
1000): flipped together with the head five times in a row on the multi-head and the
real-model pages, every run leaves one grid, one map, one set of notes and one per-layer
comparison, with the values and the URL of the last choice."""

from urllib.parse import parse_qs, urlsplit

import numpy as np
import pytest
from playwright.sync_api import Page, expect

from attnviz.i18n import t
from attnviz.lessons import multihead

from .conftest import assert_clean, open_app, wait_idle

pytestmark = pytest.mark.browser

MEASURES = ("weights", "contributions")


def choose(page: Page, label: str, option: int) -> None:
    """Click option ``option`` (from 0) of the radio group labelled ``label``."""
    group = page.locator("[data-testid=stRadio]").filter(has_text=label)
    group.locator("[data-testid=stRadioOption]").nth(option).click()


def query(page: Page) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(page.url).query).items()}


def once_each(page: Page) -> None:
    """One grid of tiles and one enlarged map: neither drawn twice."""
    assert page.locator(".mosaic").count() == 1
    assert page.locator(".heatmap").count() == 1


def grid_notes(page: Page) -> list[str]:
    """The notes under the grid of tiles, as last drawn."""
    return page.locator(".mosaic ~ .notes").last.locator("p").all_text_contents()


def test_multihead_switch_and_head_five_times(page, server):
    text = "the cat sat on the mat"
    open_app(page, f"{server}/multihead?lang=ja&text={text.replace(' ', '+')}")
    r = multihead.run(multihead.Config(text=text))
    tiles = page.locator(".mosaic button.cell")
    tiles.first.wait_for(timeout=90_000)
    label = t("multihead.show", "ja")
    for step in range(5):
        shown = "contributions" if step % 2 == 0 else "weights"
        choose(page, label, 0 if shown == "weights" else 2)
        wait_idle(page)
        head = (3 * step + 2) % 8  # 2, 5, 0, 3, 6: every step another head
        tiles.nth(head).click()
        page.wait_for_url(f"**head={head + 1}**" if head else "**", timeout=30_000)
        wait_idle(page)
        expect(page.locator(".heatmap .title")).to_have_text(
            t("multihead.head", "ja", h=head + 1), timeout=30_000
        )
        once_each(page)
        params = query(page)
        assert params.get("show", "weights") == shown
        notes = grid_notes(page)
        maps = r.norms if shown == "contributions" else r.weights
        said = t("multihead.range_contributions", "ja", hi=float(maps.max()))
        assert (said in notes) == (shown == "contributions")
        assert len(notes) == len(set(notes))  # no note twice
        assert_clean(page)


def test_real_model_switch_and_head_five_times(page, server):
    open_app(page, f"{server}/real_model?lang=ja&text=The+cat+sat+on+the+mat.")
    tiles = page.locator(".mosaic button.cell")
    tiles.first.wait_for(timeout=90_000)
    label = t("real_model.measure", "ja")
    title = t("real_model.sinks_layers_title", "ja")
    for step in range(5):
        measure = MEASURES[(step + 1) % 2]  # contributions first
        choose(page, label, MEASURES.index(measure))
        wait_idle(page)
        layer, head = step + 1, (5 * step + 3) % 12
        tiles.nth(layer * 12 + head).click()
        page.wait_for_url(f"**head={head + 1}**", timeout=30_000)
        wait_idle(page)
        once_each(page)
        params = query(page)
        assert params.get("measure", "weights") == measure
        shown = (params.get("layer", "3"), params.get("head", "1"))  # defaults stay out
        assert shown == (str(layer + 1), str(head + 1))
        heading = t("names.layer_head", "ja", l=layer + 1, h=head + 1)
        if measure == "contributions":
            heading = t("real_model.title_contributions", "ja", title=heading)
        expect(page.locator(".heatmap .title")).to_have_text(heading, timeout=30_000)
        assert page.get_by_text(title, exact=True).count() == 1  # the per-layer shares, once
        assert page.locator(".js-plotly-plot .barlayer").count() == 3  # its three panels
        grid = grid_notes(page)
        assert len(grid) == len(set(grid))
        assert_clean(page)
    rows = page.locator("table.dataframe").last.locator("tbody tr")
    assert rows.count() == 6  # one row per layer
    cells = np.array([float(x) for x in rows.nth(1).locator("td").all_text_contents()[1:]])
    assert cells[0] > 2 * cells[1]  # layer 2: [CLS] takes weight, sends little


def test_a_redraw_keeps_one_box_of_notes(page, server):
    open_app(page, f"{server}/multihead?lang=ja&show=contributions")
    tiles = page.locator(".mosaic button.cell")
    tiles.first.wait_for(timeout=90_000)
    for head in (3, 5):
        tiles.nth(head).click()
        page.wait_for_url(f"**head={head + 1}**", timeout=30_000)
        wait_idle(page)
    assert page.locator(".mosaic ~ .notes").count() == 1
    assert page.locator(".heatmap ~ .notes").count() == 1
