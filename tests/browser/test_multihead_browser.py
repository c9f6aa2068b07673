"""The multi-head page in Chromium: a click on a head's tile enlarges that head (and the
sidebar's share link follows); the enlarged map's tooltip gives the engine's weight, and a
click on its cell, or the arrow keys and Enter, show the steps of that weight."""

import base64
import io
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import numpy as np
import pytest
from PIL import Image
from playwright.sync_api import expect

from attnviz.charts.raster import colour
from attnviz.i18n import plain, t
from attnviz.lessons import multihead, multihead_probe
from attnviz.tables import step_tables
from attnviz.text import token_labels
from ui.export import csv_text

from ..app.helpers import chain
from .conftest import assert_clean, labels_fitted, open_app, slider, wait_idle

pytestmark = pytest.mark.browser

STEP_SHOWN = """t => Array.from(document.querySelectorAll('annotation'))
    .some(a => a.textContent.startsWith(t))"""


def cell_centre(plot, n: int, i: int, j: int) -> tuple[float, float]:
    """Where the centre of cell (query i, key j), from 1, of an n × n map is on screen."""
    box = plot.bounding_box()
    return box["x"] + (j - 0.5) / n * box["width"], box["y"] + (i - 0.5) / n * box["height"]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_click_on_a_head_tile_enlarges_it(page, server, lang):
    open_app(page, f"{server}/multihead?lang={lang}")
    grid = page.locator(".mosaic")
    grid.locator("img").wait_for(timeout=90_000)  # every head is one image
    assert grid.locator("img").evaluate("img => img.complete && img.naturalWidth > 0")
    tiles = grid.locator("button.cell")
    assert tiles.count() == 8
    name = "head 6" if lang == "en" else "ヘッド\u00a06"  # a number keeps its word
    assert tiles.nth(5).get_attribute("title").startswith(name)
    tiles.nth(5).click()
    page.wait_for_url("**head=6**", timeout=30_000)
    wait_idle(page)
    assert grid.locator("button.cell.selected").get_attribute("title").startswith(name)
    expect(page.locator(".heatmap .title")).to_have_text(name, timeout=30_000)
    # the tile's run was the fragment's alone: the share link still follows the address
    link = page.locator(".share input")
    expect(link).to_have_value(re.compile(r"/multihead\?.*head=6"), timeout=5_000)
    assert link.input_value() == page.url
    copy = page.locator(".share button")
    copy.click()
    expect(copy).to_have_text("Copied" if lang == "en" else "コピーしました")
    assert_clean(page)


def test_the_maps_tooltip_and_a_click_on_a_cell(page, server):
    text = "the cat sat on the mat because the mat was warm"  # N = 11 tokens
    open_app(page, f"{server}/multihead?lang=en&text={text.replace(' ', '+')}")
    plot = page.locator(".heatmap .plot")
    plot.wait_for(timeout=90_000)
    plot.scroll_into_view_if_needed()
    weights = multihead.run(multihead.Config(text=text)).weights[0]  # head 1, the default
    page.mouse.move(*cell_centre(plot, 11, 3, 5))
    tip = page.locator(".heatmap .tip")
    expect(tip).to_be_visible()
    assert tip.inner_text().split("\n") == ["3:sat → 5:the", f"{weights[2, 4]:.4f}"]
    page.mouse.move(*cell_centre(plot, 11, 11, 2))  # the last row: the tip hangs below the map
    box = tip.bounding_box()
    assert box["y"] + box["height"] > plot.bounding_box()["y"] + plot.bounding_box()["height"]
    shot = np.asarray(Image.open(io.BytesIO(page.screenshot())).convert("L"))
    assert shot[int(box["y"] + box["height"] - 3), int(box["x"] + 3)] < 80  # drawn, not cut
    labels_fitted(page.locator(".heatmap"))  # the map laid out, to be clicked
    for i, j in ((3, 5), (8, 2)):
        page.mouse.click(*cell_centre(plot, 11, i, j))
        page.wait_for_url(f"**i={i}&j={j}**", timeout=30_000)
        score = rf"\begin{{aligned}}s_{{{i},{j}}} &="  # the score line, one step a line
        page.wait_for_function(STEP_SHOWN, arg=score, timeout=30_000)
        wait_idle(page)
        mark = page.locator(".heatmap .picked").bounding_box()  # the picked cell, outlined
        x, y = cell_centre(plot, 11, i, j)
        assert (
            abs(mark["x"] + mark["width"] / 2 - x) < 2
            and abs(mark["y"] + mark["height"] / 2 - y) < 2
        )
    assert page.locator("h3").filter(has_text="Follow one weight").count() == 1
    # the keyboard: from the picked cell (8, 2), up twice and right once, then Enter
    plot.focus()
    for key in ("ArrowUp", "ArrowUp", "ArrowRight"):
        plot.press(key)
    assert tip.inner_text().split("\n") == ["6:mat → 3:sat", f"{weights[5, 2]:.4f}"]
    plot.press("Enter")
    page.wait_for_url("**i=6&j=3**", timeout=30_000)
    page.wait_for_function(STEP_SHOWN, arg=r"\begin{aligned}s_{6,3} &=", timeout=30_000)
    wait_idle(page)
    expect(plot).to_be_focused()  # the map was redrawn; the focus stayed on it
    assert_clean(page)


# each display formula of the weight followed: its LaTeX, and whether its first subscript is
# set smaller than its symbol and lower (KaTeX's layout, which needs its own version's CSS)
STEP_FORMULAS = """() => [...document.querySelectorAll('.attnviz-steps .katex-display')].map(f => {
  const script = f.querySelector('.katex-html .msupsub');
  const [sub, base] = [script.querySelector('.mtight'), script.previousElementSibling];
  const [s, b] = [sub, base].map(n => n.getBoundingClientRect());
  const size = n => parseFloat(getComputedStyle(n).fontSize);
  const set = size(sub) < 0.8 * size(base) && s.top + s.bottom > b.top + b.bottom;
  return [f.querySelector('annotation').textContent, set]; })"""


def test_the_steps_are_typeset_and_save_their_numbers(page, server):
    """The weight followed, one component: its five lines typeset by KaTeX in the lesson's
    order, subscripts set low; the CSV under the terms is the lesson's table of them."""
    text = "the cat sat on the mat because the mat was warm"
    words = text.replace(" ", "+")
    open_app(page, f"{server}/multihead?lang=en&follow=true&i=3&j=5&text={words}")
    page.wait_for_function(STEP_SHOWN, arg=r"\begin{aligned}s_{3,5} &=", timeout=90_000)
    wait_idle(page)
    cfg = multihead.Config(text=text)
    followed = multihead_probe.follow(multihead_probe.Pick(cfg, h=0, i=2, j=4))
    shown = page.evaluate(STEP_FORMULAS)
    assert [chain(tex) for tex, _ in shown] == followed.formulas  # one step a line, as set
    assert all(set_low for _, set_low in shown)
    what = t("steps.dl_terms", "en")
    with page.expect_download() as saved:
        page.get_by_role("button", name=t("app.download_csv", "en", name=what)).click()
    assert saved.value.suggested_filename == f"{what}.csv"  # named as its button
    tokens = multihead.run(cfg).tokens
    want = step_tables(followed.steps, tokens)["terms"]  # its words headed in English
    want = want.rename_axis(t("steps.terms_x", "en"))
    assert Path(saved.value.path()).read_text(encoding="utf-8-sig") == csv_text(want)
    assert_clean(page)


def test_the_map_saves_itself_as_shown(page, server):
    """The map's own button: a PNG twice the size on screen, each cell its colour, with the
    labels drawn in."""
    text = "the cat sat on the mat because the mat was warm"
    open_app(page, f"{server}/multihead?lang=ja&text={text.replace(' ', '+')}")
    plot = page.locator(".heatmap .plot")
    plot.wait_for(timeout=90_000)
    with page.expect_download() as saved:
        page.locator(".heatmap .save").click()
    what = t("multihead.dl_head", "ja", h=1, what=t("multihead.weights", "ja"))
    assert saved.value.suggested_filename == f"{plain(what)}.png"  # named as its CSV
    image = np.asarray(Image.open(saved.value.path()).convert("RGB"))
    frame, box = page.locator(".heatmap").bounding_box(), plot.bounding_box()
    assert abs(image.shape[1] - 2 * frame["width"]) <= 2
    r = multihead.run(multihead.Config(text=text))
    cells = colour(r.weights[0], 0.0, float(r.weights.max()))  # (N, N, 3), head 1
    for i, j in ((2, 4), (10, 7), (5, 0)):  # not (0, 0): the picked cell, outlined in red
        x = 2 * (box["x"] - frame["x"] + (j + 0.5) / 11 * box["width"])
        y = 2 * (box["y"] - frame["y"] + (i + 0.5) / 11 * box["height"])
        np.testing.assert_array_equal(image[int(y), int(x)], cells[i, j])
    left = image[:, : int(2 * (box["x"] - frame["x"]))]  # the row labels: dark text on white
    assert (left.sum(-1) < 200).sum() > 500
    assert_clean(page)


def test_the_grid_saves_its_own_picture(page, server):
    """The button under the grid of heads (the mosaic's own) saves its picture drawn for a
    handout, larger than the one shown (what it holds: test_exports_browser)."""
    open_app(page, f"{server}/multihead?lang=ja&H=4")
    link = page.locator(".mosaic .save")
    expect(link).to_have_text(t("app.download_png", "ja", name=t("multihead.dl_grid", "ja")))
    with page.expect_download() as saved:
        link.click()
    assert saved.value.suggested_filename == "全ヘッドのマップ.png"
    shown = page.locator(".mosaic img").get_attribute("src")
    shown = Image.open(io.BytesIO(base64.b64decode(shown.split(",", 1)[1])))
    picture = Image.open(saved.value.path())
    assert picture.format == "PNG" and picture.width > 2 * shown.width


def test_the_head_csv_holds_the_enlarged_heads_weights(page, server):
    """The CSV of the enlarged head, built only on the click: the engine's weights of head 3,
    rows and columns labelled by token."""
    text = "the cat sat on the mat"
    open_app(page, f"{server}/multihead?lang=en&head=3&text={text.replace(' ', '+')}")
    what = t("multihead.dl_head", "en", h=3, what=t("multihead.weights", "en"))
    with page.expect_download() as saved:
        page.get_by_role("button", name=t("app.download_csv", "en", name=what)).click()
    assert saved.value.suggested_filename == f"{what}.csv"  # named as its button
    rows = Path(saved.value.path()).read_text(encoding="utf-8-sig").splitlines()
    r = multihead.run(multihead.Config(text=text))
    labels = token_labels(r.tokens, escape=False)
    assert rows[0].split(",") == [t("app.csv_corner", "en"), *labels]  # rows: queries
    assert [row.split(",")[0] for row in rows[1:]] == labels
    weights = np.array([[float(v) for v in row.split(",")[1:]] for row in rows[1:]])
    np.testing.assert_allclose(weights, r.weights[2], atol=1e-7)
    assert_clean(page)


# every label's font size, and the size of one cell, in CSS px
LABEL_SIZES = """root => { const plot = root.querySelector(".plot").getBoundingClientRect();
  const size = (sel) => [...root.querySelectorAll(sel)]
    .map(node => parseFloat(getComputedStyle(node).fontSize));
  const rows = size(".row-labels .label");
  return { cellH: plot.height / rows.length, cellW: plot.width / rows.length, rows,
    cols: size(".col-labels .label") }; }"""


def test_labels_fit_their_cells_on_a_projector(page, server):
    """40 tokens in presentation mode at 1280 px: each token's label is set no larger than
    its cell is tall (rows) or wide (columns), so none overlaps the next."""
    page.set_viewport_size({"width": 1280, "height": 900})
    text = "+".join(f"w{k}" for k in range(40))
    open_app(page, f"{server}/multihead?lang=ja&present=true&text={text}")
    page.locator(".heatmap .plot").wait_for(timeout=90_000)
    labels_fitted(page.locator(".heatmap"))
    sizes = page.locator(".heatmap").evaluate(LABEL_SIZES)
    assert len(sizes["rows"]) == len(sizes["cols"]) == 40
    assert max(sizes["rows"]) <= sizes["cellH"], sizes
    assert max(sizes["cols"]) <= sizes["cellW"], sizes
    assert_clean(page)


ROW_LABELS = "root => [...root.querySelectorAll('.row-labels .label')].map(n => n.textContent)"


def test_a_dragged_box_zooms_into_its_cells(page, server):
    """150 tokens: every tenth position is numbered; a box dragged over queries 11–30 and
    keys 21–40 shows just those cells, each token named, with the engine's weights in the
    tooltip and the cell picked there; the zoom outlives the pick's rerun, and the saved PNG
    is the zoomed view. The reset button, + and 0 change the view."""
    n = 150
    words = [f"w{k}" for k in range(n)]
    open_app(page, f"{server}/multihead?lang=en&D=16&H=2&text={'+'.join(words)}")
    root, plot = page.locator(".heatmap"), page.locator(".heatmap .plot")
    plot.wait_for(timeout=90_000)
    plot.scroll_into_view_if_needed()
    labels = root.evaluate(ROW_LABELS)
    assert len(labels) == n and [t for t in labels if t] == [str(k) for k in range(10, n + 1, 10)]
    reset = root.locator(".reset")
    expect(reset).to_be_hidden()
    page.mouse.move(*cell_centre(plot, n, 11, 21))
    page.mouse.down()
    page.mouse.move(*cell_centre(plot, n, 30, 40), steps=5)
    page.mouse.up()
    assert root.evaluate(ROW_LABELS) == [f"{k}:w{k - 1}" for k in range(11, 31)]
    expect(reset).to_be_visible()
    r = multihead.run(multihead.Config(text=" ".join(words), D=16, H=2))
    weights = r.weights[0]  # head 1

    def zoomed(i: int, j: int) -> tuple[float, float]:
        """The centre of cell (i, j) of the view of queries 11–30, keys 21–40."""
        box = plot.bounding_box()
        x = box["x"] + (j - 20.5) / 20 * box["width"]
        return x, box["y"] + (i - 10.5) / 20 * box["height"]

    page.mouse.move(*zoomed(15, 25))
    tip = root.locator(".tip").inner_text().split("\n")
    assert tip == ["15:w14 → 25:w24", f"{weights[14, 24]:.4f}"]
    page.mouse.click(*zoomed(15, 25))
    page.wait_for_url("**i=15&j=25**", timeout=30_000)
    wait_idle(page)  # the pick's run finished: its data has reached the map
    expect(root.locator(".picked")).to_be_visible()
    assert len(root.evaluate(ROW_LABELS)) == 20  # still zoomed after the rerun
    mark, (x, y) = root.locator(".picked").bounding_box(), zoomed(15, 25)
    assert abs(mark["x"] + mark["width"] / 2 - x) < 2
    assert abs(mark["y"] + mark["height"] / 2 - y) < 2
    with page.expect_download() as saved:
        root.locator(".save").click()
    image = np.asarray(Image.open(saved.value.path()).convert("RGB"))
    frame, (x, y) = root.bounding_box(), zoomed(18, 33)
    cells = colour(weights, 0.0, float(r.weights.max()))
    np.testing.assert_array_equal(
        image[int(2 * (y - frame["y"])), int(2 * (x - frame["x"]))], cells[17, 32]
    )
    for view in ("scores (before softmax)", "weights (after softmax)"):  # the other view
        shown = root.locator(".plot img").get_attribute("src")
        page.get_by_text(view).click()
        wait_idle(page)
        expect(root.locator(".plot img")).not_to_have_attribute("src", shown)  # redrawn
        assert len(root.evaluate(ROW_LABELS)) == 20, view  # keeps the zoom
    reset.click()
    assert len(root.evaluate(ROW_LABELS)) == n
    expect(reset).to_be_hidden()
    plot.focus()
    plot.press("+")  # half the rows and columns, around the cursor (the picked cell)
    assert len(root.evaluate(ROW_LABELS)) == n // 2
    plot.press("0")
    assert len(root.evaluate(ROW_LABELS)) == n
    assert_clean(page)


# the box of each character "日" in the column labels, in CSS px from the map's frame
CHAR_BOXES = """(root, want) => { const frame = root.getBoundingClientRect(); const out = [];
  for (const label of root.querySelectorAll(".col-labels .label")) {
    const node = label.firstChild, range = document.createRange();
    for (let k = node ? node.textContent.indexOf(want) : -1; k >= 0;
         k = node.textContent.indexOf(want, k + 1)) {
      range.setStart(node, k); range.setEnd(node, k + 1); const b = range.getBoundingClientRect();
      out.push([b.x - frame.x, b.y - frame.y, b.width, b.height]); } }
  return out; }"""


def _ink(image: np.ndarray, box: list[float]) -> tuple[int, int]:
    """(width, height) of the dark pixels of ``image`` (2× CSS px) inside ``box`` (CSS px)."""
    x, y, w, h = (round(2 * v) for v in box)
    ys, xs = np.nonzero(image[y - 2 : y + h + 2, x - 2 : x + w + 2] < 128)
    return int(np.ptp(xs)) + 1, int(np.ptp(ys)) + 1


def test_the_saved_png_sets_japanese_labels_upright(browser, server):
    """Column labels are vertical: on screen kanji stand upright. The saved PNG draws each
    character where the screen has it, so 日 is taller than wide there too (turned, as a
    canvas draws a whole turned string, it would lie wider than tall)."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000}, device_scale_factor=2)
    page = ctx.new_page()
    page.errors = []  # as the page fixture's, for assert_clean
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    open_app(page, f"{server}/multihead?lang=ja&text=日が昇り日が沈む")
    root = page.locator(".heatmap")
    root.locator(".plot").wait_for(timeout=90_000)
    root.scroll_into_view_if_needed()
    labels_fitted(root)
    screen = np.asarray(Image.open(io.BytesIO(root.screenshot())).convert("L"))
    with page.expect_download() as saved:
        root.locator(".save").click()
    png = np.asarray(Image.open(saved.value.path()).convert("L"))
    boxes = root.evaluate(CHAR_BOXES, "日")
    assert len(boxes) == 2
    for box in boxes:
        (w, h), (w_png, h_png) = _ink(screen, box), _ink(png, box)
        assert h > w and h_png > w_png, (w, h, w_png, h_png)
        assert abs(w_png - w) <= 3 and abs(h_png - h) <= 3
    assert_clean(page)
    ctx.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_h_slider_steps_to_the_divisors_of_the_width_and_shows_them(page, server, lang):
    """At D = 24, a key press on H moves on to the next divisor the way it went, and the
    slider then shows the H the page drew (it showed 7 beside 8 heads, and a step up from
    8 at D = 64 snapped back to 8 for ever). A link's H moves to the nearest divisor."""
    label, why = ("Heads H", "not divisible") if lang == "en" else ("ヘッドの数 H", "割り切れない")
    open_app(page, f"{server}/multihead?lang={lang}&D=24&H=4")
    thumb = slider(page, label)
    thumb.focus()
    steps = (("ArrowRight", "5", "6"), ("ArrowRight", "7", "8"), ("ArrowLeft", "7", "6"))
    for key, asked, expected in steps:
        thumb.press(key)
        expect(thumb).to_have_value(expected, timeout=30_000)
        wait_idle(page)
        expect(page.locator(".mosaic button.cell")).to_have_count(int(expected))
        note = page.locator("[data-testid=stAlert]").filter(has_text=why).inner_text()
        note = note.replace("\u00a0", " ")  # Japanese keeps 「H = 5」 on one line
        assert f"H = {asked}" in note and f" {expected}" in note  # in the reader's language
        linked = parse_qs(urlsplit(page.url).query).get("H", ["8"])  # 8, the default: no H
        assert linked == [expected]
    assert page.get_by_role("radio", name="English" if lang == "en" else "日本語").is_checked()
    open_app(page, f"{server}/multihead?lang={lang}&D=4&H=32")
    expect(thumb).to_have_value("4", timeout=30_000)
    # the run that moved H started again: the example text, first drawn in the run before,
    # is shown (it was blank while the page computed with it)
    example = page.locator("[data-testid=stTextInput] input").first
    expect(example).to_have_value(t("multihead.default_text", lang))
    expect(page.locator(".mosaic button.cell")).to_have_count(4)
    assert_clean(page)


def test_the_pipeline_opens_under_the_formulas_every_formula_typeset(page, server):
    """The table of steps and shapes is drawn on demand (a popover: nothing while closed),
    below the formulas, every formula typeset (its rows are the lesson's pipeline:
    tests/app/test_multihead_page.py::test_formulas_shown_are_those_of_the_config_run)."""
    lang = "ja"
    open_app(page, f"{server}/multihead?lang={lang}&text=a+b+c&D=24&H=3")
    label = t("multihead.pipeline", lang)
    assert page.locator("[data-testid=stTable]").count() == 0  # not drawn while closed
    page.get_by_role("button", name=label).click()
    table = page.locator("[data-testid=stTable]")
    expect(table.locator("tbody tr")).to_have_count(10, timeout=10_000)
    assert table.locator("tbody tr td:nth-child(2) .katex").count() == 10
    formulas = page.locator("[data-testid=stMain] .katex-display").first.bounding_box()
    button = page.get_by_role("button", name=label).bounding_box()
    assert button["y"] > formulas["y"]  # under the formulas
    assert_clean(page)


# the page's style for its mode has been applied (ui/presenting.css sets the faded text's
# variable darker than ui/app.css does)
MODE_STYLED = """large => parseFloat(getComputedStyle(document.documentElement)
  .getPropertyValue('--attnviz-faded')) === (large ? 0.85 : 0.75)"""


def test_the_pipeline_s_table_is_at_projector_size_when_presenting(page, server):
    """Its button is a control like the others; at a desk its table is a popover's, drawn
    outside the main area, and presenting an expander's under both columns (the popover
    covered the map's row labels): the projector's sizes reach both."""
    size = "p => parseFloat(getComputedStyle(p).fontSize)"
    sizes = {}
    where = {"false": "[data-testid=stPopoverBody]", "true": "[data-testid=stExpander]"}
    for present in ("false", "true"):
        open_app(page, f"{server}/multihead?lang=ja&present={present}")
        page.wait_for_function(MODE_STYLED, arg=present == "true", timeout=30_000)
        name = t("multihead.pipeline", "ja")
        if present == "true":
            button = page.locator("[data-testid=stExpander] summary").filter(has_text=name)
        else:
            button = page.get_by_role("button", name=name)
        label = float(button.locator("p").first.evaluate(size))
        button.click()
        cell = page.locator(f"{where[present]} [data-testid=stTable] td p").last
        sizes[present] = (label, float(cell.evaluate(size)))
    assert max(sizes["false"]) < 18 <= min(sizes["true"]), sizes


NOTE_LOOK = """() => {
  const look = (p, box) => { const s = getComputedStyle(p), b = getComputedStyle(box);
    return [s.fontSize, s.lineHeight, b.opacity, s.color, p.textContent.length > 0]; };
  const caption = document.querySelector("[data-testid=stMain] [data-testid=stCaptionContainer]");
  const notes = [...document.querySelectorAll(".st-key-grid *, .st-key-head_map *")]
    .filter((n) => n.shadowRoot).map((n) => n.shadowRoot.querySelector(".notes"));
  return [look(caption.querySelector("p"), caption),
          ...notes.map((box) => look(box.querySelector("p"), box))];
}"""


# both components have drawn their notes in the mode of the page (ui/common.js's `large`),
# and the page's own style for that mode (ui/presenting.css's faded text) has been applied
NOTES_DRAWN = """large => {
  const faded = getComputedStyle(document.documentElement).getPropertyValue('--attnviz-faded');
  const notes = [...document.querySelectorAll(".st-key-grid *, .st-key-head_map *")]
    .filter((n) => n.shadowRoot).map((n) => n.shadowRoot.querySelector(".notes"));
  return parseFloat(faded) === (large ? 0.85 : 0.75) && notes.length === 2
    && notes.every((box) => box?.classList.contains("large") === large
      && box.querySelector("p")?.textContent.length > 0); }"""


@pytest.mark.parametrize("present", ["false", "true"])
def test_the_notes_under_the_grid_and_the_map_look_like_the_page_s_captions(page, server, present):
    open_app(page, f"{server}/multihead?lang=ja&present={present}")
    page.locator(".mosaic img").wait_for(timeout=90_000)
    page.locator(".heatmap .plot img").wait_for(timeout=90_000)
    page.wait_for_function(NOTES_DRAWN, arg=present == "true", timeout=30_000)
    caption, *notes = page.evaluate(NOTE_LOOK)
    assert len(notes) == 2 and caption[-1]
    assert all(note == caption for note in notes), (caption, notes)


def test_the_weight_followed_can_be_checked_without_hovering(page, server):
    """D′ = 8: all eight products typeset (three and "…" before), and each bar of the terms'
    chart carries its value, so the sum is checked from the page alone."""
    open_app(page, f"{server}/multihead?lang=ja&follow=true&i=2&j=5")
    page.wait_for_function(STEP_SHOWN, arg=r"\begin{aligned}s_{2,5} &=", timeout=90_000)
    wait_idle(page)
    cfg = multihead.Config(text=t("multihead.default_text", "ja"))
    steps = multihead_probe.follow(multihead_probe.Pick(cfg, h=0, i=1, j=4)).steps
    score = next(tex for tex, _ in page.evaluate(STEP_FORMULAS) if tex.startswith(r"\begin"))
    assert score.count(")(") == 8 and r"\dots" not in score
    terms = page.locator(".attnviz-steps .bars").first.locator("text.value")
    expect(terms).to_have_count(8)
    shown = [float(v.replace("−", "-")) for v in terms.all_text_contents()]
    np.testing.assert_allclose(shown, steps.terms, rtol=5e-3, atol=1e-6)  # 3 digits
    assert_clean(page)
