"""On a phone (390 × 844) the heads' titles never run into each other, at any H: the
multi-head page's grid (ui/mosaic.js sets them short, "h12", where the long ones do not
fit their tiles' columns), the real model's column labels in presentation mode's larger
type, and the Plotly grid of the tour's S10/S12 figure (attnviz.charts.head_grid), drawn
as plotly.js draws it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import plotly
import plotly.io
import pytest
from playwright.sync_api import expect

from attnviz.charts import head_grid
from attnviz.i18n import t

from .conftest import assert_clean, open_app

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
HS = (1, 2, 4, 8, 12, 16, 32)
PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
BOXES = """els => els.map(e => { const r = e.getBoundingClientRect();
    return {text: e.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom}; })"""


def overlaps(boxes: list[dict]) -> list[tuple[str, str]]:
    """Each pair of boxes that share some area."""
    return [
        (a["text"], b["text"])
        for k, a in enumerate(boxes)
        for b in boxes[k + 1 :]
        if a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and b["top"] < a["bottom"]
    ]


@pytest.fixture
def phone(browser):
    ctx = browser.new_context(viewport=PHONE, locale="ja-JP", has_touch=True, is_mobile=True)
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    yield page
    ctx.close()


def test_the_multihead_grid_s_titles_never_overlap_on_a_phone(phone, server):
    for H in HS:  # D = 384 has every one of them as a divisor
        open_app(phone, f"{server}/multihead?lang=ja&H={H}&D=384")
        labels = phone.locator(".mosaic .tile-label")
        expect(labels).to_have_count(H)
        phone.evaluate("() => new Promise(requestAnimationFrame)")  # the fit is laid out
        boxes = labels.evaluate_all(BOXES)
        assert not overlaps(boxes), (H, overlaps(boxes))
        assert all(b["left"] >= 0 and b["right"] <= PHONE["width"] for b in boxes), H
        if H <= 4:  # the long titles wherever they fit
            assert boxes[-1]["text"] == t("multihead.head", "ja", h=H)
        assert_clean(phone)


def test_the_real_model_s_column_labels_never_overlap_on_a_phone_when_presenting(phone, server):
    open_app(phone, f"{server}/real_model?lang=ja&present=true")
    labels = phone.locator(".mosaic .col-labels .label")
    expect(labels).to_have_count(12)
    phone.evaluate("() => new Promise(requestAnimationFrame)")
    boxes = labels.evaluate_all(BOXES)
    assert not overlaps(boxes), overlaps(boxes)
    assert_clean(phone)


@pytest.mark.parametrize(("lang", "cols"), [("ja", 4), ("en", 4), ("ja", 8)])
def test_the_plotly_head_grid_s_titles_never_overlap_on_a_phone(phone, lang, cols):
    """The tour's figure of every head, at H = 1 … 32, in the width a phone gives a chart
    (the page's 16 px margins either side); with its 4 tiles a row, and 8."""
    rng = np.random.default_rng(0)
    phone.set_content(
        "<meta name=viewport content='width=device-width, initial-scale=1'>"
        "<body style='margin: 0 16px'><div id=fig></div></body>"
    )
    phone.add_script_tag(path=str(PLOTLY_JS))
    for H in range(1, 33):
        weights = rng.dirichlet(np.ones(6), size=(H, 6))
        titles = [t("tour.head", lang, h=h + 1) for h in range(H)]
        fig = head_grid(weights, list("abcdef"), titles=titles, cols=cols)
        phone.evaluate(
            "f => Plotly.newPlot('fig', f.data, f.layout, {responsive: true})",
            json.loads(plotly.io.to_json(fig)),
        )
        boxes = phone.locator("#fig .annotation-text").evaluate_all(BOXES)
        assert len(boxes) == H
        assert not overlaps(boxes), (H, overlaps(boxes))
        assert all(b["left"] >= 0 and b["right"] <= PHONE["width"] for b in boxes), H
    assert not phone.errors, phone.errors
