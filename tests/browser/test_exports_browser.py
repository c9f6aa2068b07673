"""The multi-head page's downloads as a teacher's handout uses them, in Japanese: heads
numbered as the page numbers them, headers and file names in the reader's language, a map's
CSV saying its rows are queries, and a picture of every head with its titles, tokens and
colour bar."""

import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from PIL import Image

from attnviz.charts.raster import colour
from attnviz.i18n import plain, t
from attnviz.lessons import multihead

from .conftest import assert_clean, open_app

pytestmark = pytest.mark.browser


def saved(page, button) -> tuple[str, bytes]:
    with page.expect_download() as download:
        button.click()
    return download.value.suggested_filename, Path(download.value.path()).read_bytes()


def test_multihead_downloads_in_japanese(page, server):
    open_app(page, f"{server}/multihead?lang=ja")
    page.locator(".mosaic img").wait_for(timeout=90_000)
    r = multihead.run(multihead.Config(text=t("multihead.default_text", "ja")))
    N, what = len(r.tokens), plain(t("multihead.weights", "ja"))
    buttons = page.locator("[data-testid=stDownloadButton] button")

    name, data = saved(page, buttons.filter(has_text=plain(t("multihead.dl_all", "ja", what=what))))
    assert name == f"全ヘッドの{what}.csv"
    table = pd.read_csv(io.BytesIO(data), encoding="utf-8-sig")
    assert list(table.columns) == ["ヘッド", "query", "key", what]
    assert sorted(set(table["ヘッド"])) == list(range(1, 9))  # as the tiles: ヘッド 1–8
    head3 = table[table["ヘッド"] == 3][what].to_numpy().reshape(N, N)
    np.testing.assert_allclose(head3, r.weights[2], rtol=1e-6)

    one = plain(t("multihead.dl_head", "ja", h=1, what=what))
    name, data = saved(page, buttons.filter(has_text=one))
    assert name == f"{one}.csv"
    table = pd.read_csv(io.BytesIO(data), encoding="utf-8-sig", index_col=0)
    assert table.index.name == "query（行）＼ key（列）"  # not "Unnamed: 0"
    np.testing.assert_allclose(table.to_numpy(), r.weights[0], rtol=1e-6)

    name, data = saved(page, page.locator(".mosaic .save"))
    assert name == "全ヘッドのマップ.png"
    picture = np.asarray(Image.open(io.BytesIO(data)).convert("RGB")).astype(int)
    assert picture.shape[1] >= 1000 and picture.shape[0] >= 600  # the screen's was 525 × 297
    # the colour bar: a column holding the scale's top (yellow) and bottom (purple) colours
    top, bottom = colour(np.array([1.0, 0.0]), 0, 1)
    near = lambda c: (np.abs(picture - c).sum(-1) < 30).any(0)  # noqa: E731
    assert (near(top) & near(bottom)).any()
    # the titles and the tokens: dark text left of the first tile and above each tile
    dark = (picture.sum(-1) < 200).sum()
    assert dark > 2000
    assert_clean(page)
