"""The real-model page in Chromium on a tiny GPT-2 folder (tests/tiny_models.py) that a
server lists through ATTNVIZ_MODELS: the picker holds it, the grid and the map are causal
(a cell above the diagonal says it is masked), the blocks are shown pre-LN and the sinks
are on the first token."""

import re

import pytest
from playwright.sync_api import expect

from attnviz.i18n import t
from tests.tiny_models import gpt2_folder

from .conftest import ARTIFACTS, assert_clean, open_app, start_server

pytestmark = pytest.mark.browser

TEXT = "The+cat+sat+on+the+mat."


@pytest.fixture(scope="module")
def gpt2_server(tmp_path_factory):
    root = tmp_path_factory.mktemp("models")
    gpt2_folder(root / "gpt2-tiny")
    proc, url = start_server(env={"ATTNVIZ_MODELS": str(root)})
    yield url
    proc.terminate()
    proc.wait(timeout=20)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_gpt2_folder_shows_causal_maps_pre_ln_and_its_first_token_sink(page, gpt2_server, lang):
    open_app(page, f"{gpt2_server}/real_model?lang={lang}&model=gpt2-tiny&text={TEXT}")
    sidebar = page.locator("[data-testid=stSidebar]")
    picker = sidebar.get_by_role("combobox", name=t("real_model.model", lang))
    expect(picker).to_have_value("gpt2-tiny", timeout=30_000)
    main = page.locator("[data-testid=stMain]")
    expect(main.locator("h1")).to_contain_text("gpt2", timeout=30_000)
    expect(main.get_by_text(t("names.norm_pre", lang)).first).to_be_visible(timeout=30_000)
    grid = page.locator(".mosaic")
    grid.locator("img").wait_for(timeout=90_000)
    assert grid.locator("button.cell").count() == 2 * 4  # 2 layers × 4 heads
    plot = page.locator(".heatmap .plot")
    plot.wait_for(timeout=90_000)
    plot.scroll_into_view_if_needed()
    n = page.locator(".heatmap .row-labels .label").count()
    assert n == 7  # The Ġcat Ġsat Ġon Ġthe Ġmat .: no special token
    box = plot.bounding_box()
    page.mouse.move(box["x"] + (n - 0.5) / n * box["width"], box["y"] + 0.5 / n * box["height"])
    expect(page.locator(".heatmap .tip")).to_contain_text(
        t("app.masked", lang), timeout=30_000
    )  # row 1, key 7
    page.mouse.move(box["x"] + 0.5 / n * box["width"], box["y"] + (n - 0.5) / n * box["height"])
    expect(page.locator(".heatmap .tip .value")).to_have_text(
        re.compile(r"^\d\.\d{4}$"), timeout=30_000
    )  # row 7
    first = t("real_model.sink_first", lang)
    expect(main.get_by_text(first).first).to_be_attached(timeout=30_000)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"real_model_gpt2_{lang}.png"), full_page=True)
    assert_clean(page)
