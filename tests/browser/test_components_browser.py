"""The app's own components (ui/*.js, as ui.components.component builds them) in a bare page.

Streamlit calls a component's function after awaiting its module and does not drop the call
of a render that a newer one replaced: once in about 15 language switches on a loaded
machine, the switch's call came first and the last run's after it, and the share box and
<html lang> went back to Japanese. Here the calls come in that order on purpose: what is
drawn must be the newest data, whatever order the calls come in.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from attnviz.charts import mosaic as tiles_of
from attnviz.charts import steps
from attnviz.charts.cells import cell_map
from attnviz.charts.raster import png_bytes
from attnviz.text import token_labels
from ui import components, mosaic

# the component's function called in a page of its own: a host under a shadow root, as
# Streamlit gives it (isolated styles), and the calls in the order given
CALL = """async ([code, calls]) => {
  const url = URL.createObjectURL(new Blob([code], {type: "text/javascript"}));
  const draw = (await import(url)).default;
  let host = document.querySelector("#host");
  if (!host) {
    host = document.createElement("div");
    host.id = "host";
    host.attachShadow({mode: "open"});
    document.body.append(host);
  }
  for (const data of calls) draw({data, parentElement: host.shadowRoot, setTriggerValue() {}});
  // a chart is drawn to the width its observer sees after a layout: one frame on
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  return [document.documentElement.lang, host.shadowRoot.textContent];
}"""


def draw(page, stem: str, *calls: tuple[dict, list]) -> tuple[str, str]:
    """Call component ``stem`` with each (data, order) in turn: (<html lang>, its text)."""
    page.set_content("<html lang='und'><body></body></html>")
    code = components.component_js(stem)
    return tuple(page.evaluate(CALL, [code, [d | {"order": o} for d, o in calls]]))


def share(lang: str) -> dict:
    words = {"ja": ("このビューのリンク", "コピー"), "en": ("Link to this view", "Copy")}
    label, copy = words[lang]
    return {"url": f"?lang={lang}", "lang": lang, "label": label, "copy": copy, "copied": "✓"}


def heatmap(tokens: list[str]) -> dict:
    z = np.random.default_rng(0).random((len(tokens), len(tokens)))
    return cell_map(z, tokens, tokens)


def grid(title: str) -> dict:
    m = tiles_of(np.full((1, 2, 4, 4), 0.25))
    return mosaic.data(
        m,
        png_bytes(m.rgb),
        row_labels=[],
        col_labels=[],
        names=["a", "b"],
        tile_labels=[f"{title} 1", f"{title} 2"],
        selected=None,
        alt=title,
    )


@pytest.mark.browser
def test_the_share_box_and_the_page_s_language_keep_the_newest_run(page):
    ja, en = share("ja"), share("en")
    in_ja, in_en = ("ja", "このビューのリンクコピー"), ("en", "Link to this viewCopy")
    assert draw(page, "share", (ja, ["s", 1])) == in_ja
    # the switch to English (2) called before the Japanese run it replaced (1)
    assert draw(page, "share", (en, ["s", 2]), (ja, ["s", 1])) == in_en
    assert draw(page, "share", (ja, ["s", 1]), (en, ["s", 2])) == in_en
    # a reconnect is another session: its first data is drawn, whatever its number
    assert draw(page, "share", (en, ["s", 9]), (ja, ["t", 1])) == in_ja


@pytest.mark.browser
def test_the_enlarged_map_keeps_the_newest_run(page):
    old, new = heatmap(["old", "map"]), heatmap(["new", "map", "here"])
    text = draw(page, "heatmap", (new, ["s", 2]), (old, ["s", 1]))[1]
    assert "new" in text and "here" in text and "old" not in text
    assert "old" in draw(page, "heatmap", (new, ["s", 2]), (old, ["s", 3]))[1]


# the outline's place and whether the picture is still the node that was drawn first
OUTLINE = """() => { const root = document.querySelector("#host").shadowRoot;
  const img = root.querySelector(".heatmap img"), mark = root.querySelector(".picked");
  const first = !root.firstImg; root.firstImg ??= img;
  return { same: root.firstImg === img, first, top: mark.style.top, left: mark.style.left,
           shown: mark.style.display }; }"""


@pytest.mark.browser
def test_a_pick_moves_the_outline_and_keeps_the_map(page):
    """A rerun that changes only the cell picked moves the outline over the same picture; a
    map that changes in anything else is drawn anew."""
    tokens = ["a", "b", "c", "d"]
    z = np.random.default_rng(0).random((4, 4))
    look = dict(title="Head 1", zmin=0.0, zmax=1.0, height=300)

    def call(picked, order, values=z):
        data = cell_map(values, tokens, tokens, picked=picked, **look) | {"order": ["s", order]}
        page.evaluate(CALL, [components.component_js("heatmap"), [data]])
        return page.evaluate(OUTLINE)

    page.set_content("<html><body></body></html>")
    drawn = call((1, 2), 1)
    assert drawn == {"same": True, "first": True, "top": "25%", "left": "50%", "shown": "block"}
    moved = call((3, 0), 2)
    assert moved == {"same": True, "first": False, "top": "75%", "left": "0%", "shown": "block"}
    assert call(None, 3)["shown"] == "none"
    assert not call((3, 0), 4, values=z.T)["same"]  # other cells: a new picture


@pytest.mark.browser
def test_the_grid_of_heads_keeps_the_newest_run(page):
    text = draw(page, "mosaic", (grid("new"), ["s", 2]), (grid("old"), ["s", 1]))[1]
    assert "new 1" in text and "old" not in text
    assert "old 1" in draw(page, "mosaic", (grid("new"), ["s", 2]), (grid("old"), ["s", 3]))[1]


ROW = np.array([0.5, -0.25, 1.0, 0.125], dtype=np.float32)


def bars(title: str = "Row i") -> dict:
    """A chart of ui/bars.js: the row of scores s (four keys, key 3 picked) over the
    weights a = softmax(s)."""
    weights = np.exp(ROW) / np.exp(ROW).sum()
    colours = [steps.POSITIVE, steps.NEGATIVE, steps.HIGHLIGHT, steps.POSITIVE]
    panels = [
        steps.panel(name, 140, steps.series("bars", values, name=name, colours=colours))
        for values, name in ((ROW, "s"), (weights, "a"))
    ]
    names = token_labels(list("abcd"), escape=False)
    payload = steps.chart(title, "key", 4, panels, names=names, highlight=2)
    return payload | {"name": "steps_row", "saveLabel": "Download as PNG"}


CSV = "key,s,a\n1:a,0.5,0.28\n"


def followed(title: str = "Row i", large: bool = False, notes: tuple = ()) -> dict:
    """The data of ui/steps.js for a weight followed, its one panel the chart of ``bars``.
    No KaTeX here (no Streamlit page to load it from): the formulas are shown as LaTeX."""
    panel = {
        "name": "row",
        "formulas": [r"a_{3} = 0.5"],
        "note": "Grey keys are forbidden by the mask.",
        "chart": bars(title),
        "csv": {"label": "Download row i as CSV", "file": "steps_row.csv", "text": CSV},
    }
    return {
        "intro": "Every number below is recomputed.",
        "projections": "The query, key and value:",
        "lead": r"\mathbf{q}_3 = \mathbf{x}_3 W^Q",
        "panels": [panel],
        "notes": list(notes),
        "large": large,
        "katex": "",
    }


# each bar's height and top in CSS px, panel after panel
BAR_BOXES = """root => [...root.querySelectorAll("rect.bar")]
  .map(r => r.getBoundingClientRect()).map(b => [b.height, b.top])"""


@pytest.mark.browser
def test_bars_are_drawn_as_the_data_with_its_values_in_the_tooltip(page):
    assert "Row i" in draw(page, "steps", (followed(), ["s", 1]))[1]
    chart = page.locator("#host .bars")
    boxes = np.array(chart.evaluate(BAR_BOXES))
    assert len(boxes) == 2 * len(ROW)  # one bar per key in each panel
    heights, tops = boxes[:4, 0], boxes[:4, 1]
    assert list(np.argsort(heights)) == list(np.argsort(np.abs(ROW)))  # as tall as |s|
    assert tops[1] > tops[0] and tops[1] > tops[2]  # s_2 < 0 hangs below the zero line
    weights = np.exp(ROW) / np.exp(ROW).sum()
    assert list(np.argsort(boxes[4:, 0])) == list(np.argsort(weights))
    bar = chart.locator("rect.bar").nth(2).bounding_box()  # key 3's score
    page.mouse.move(bar["x"] + bar["width"] / 2, bar["y"] + bar["height"] / 2)
    assert chart.locator(".tip").inner_text().split("\n") == ["3:c", "s = 1.0000"]
    bar = chart.locator("rect.bar").nth(5).bounding_box()  # key 2's weight
    page.mouse.move(bar["x"] + bar["width"] / 2, bar["y"] + bar["height"] / 2)
    assert chart.locator(".tip").inner_text().split("\n") == ["2:b", f"a = {weights[1]:.4f}"]
    page.mouse.move(1, 1)
    assert not chart.locator(".tip").is_visible()


@pytest.mark.browser
def test_bars_save_the_chart_as_a_png_twice_its_size(page):
    draw(page, "steps", (followed(), ["s", 1]))
    chart = page.locator("#host .bars")
    box = chart.locator("svg").bounding_box()
    with page.expect_download() as saved:
        chart.locator(".save").click()
    assert saved.value.suggested_filename == "steps_row.png"
    image = Image.open(saved.value.path())
    assert image.format == "PNG"
    assert image.size == (round(2 * box["width"]), round(2 * box["height"]))
    pixels = np.asarray(image.convert("RGB")).reshape(-1, 3)
    assert (pixels == [255, 255, 255]).all(1).mean() > 0.5  # a white ground
    assert (pixels == [224, 32, 32]).all(1).any()  # key 3's red bar (#e02020) drawn


# the box of each line of the title, and of the chart, in CSS px
TITLE_BOXES = """root => [root.querySelector("svg"), ...root.querySelectorAll("text.title")]
  .map(n => n.getBoundingClientRect()).map(b => [b.left, b.top, b.right, b.bottom])"""
JA_TITLE = (  # the row chart's title
    "softmax 前の行 i（関連性 s<sub>i,l</sub>）と"
    " softmax 後の行（重み a<sub>i,l</sub>）。key j は赤"
)


@pytest.mark.browser
def test_a_japanese_title_wraps_inside_a_narrow_chart(page):
    """At 300 px the title is set on lines, each inside the chart (nothing cut); widened,
    the chart is drawn again to its column's width."""
    draw(page, "steps", (followed(JA_TITLE), ["s", 1]))
    page.evaluate("document.querySelector('#host').style.width = '300px'")
    chart = page.locator("#host .bars")
    page.wait_for_function(
        "() => document.querySelector('#host').shadowRoot"
        ".querySelector('svg').getAttribute('width') === '300'"
    )
    (left, top, right, bottom), *lines = chart.evaluate(TITLE_BOXES)
    assert len(lines) >= 2
    for x0, y0, x1, y1 in lines:
        assert left <= x0 and x1 <= right and top <= y0 and y1 <= bottom
    shown = chart.evaluate(
        "root => [...root.querySelectorAll('text.title')].map(t => t.textContent)"
    )
    assert "".join(shown).replace(" ", "") == re.sub("<[^>]+>| ", "", JA_TITLE)  # all of it
    page.evaluate("document.querySelector('#host').style.width = '600px'")
    page.wait_for_function(
        "() => document.querySelector('#host').shadowRoot"
        ".querySelector('svg').getAttribute('width') === '600'"
    )


# the font size of every text of the chart but the subscripts, in CSS px
# the bars' own values (text.value) are smaller, as small as their bands need
TEXT_SIZES = """root => [...root.querySelectorAll("svg text:not(.value)")]
  .map(t => parseFloat(getComputedStyle(t).fontSize))"""


@pytest.mark.browser
def test_presenting_sets_the_chart_s_text_at_20_px(page):
    draw(page, "steps", (followed(), ["s", 1]))
    assert min(page.locator("#host .bars").evaluate(TEXT_SIZES)) < 20
    draw(page, "steps", (followed(large=True), ["s", 1]))
    assert set(page.locator("#host .bars").evaluate(TEXT_SIZES)) == {20}


@pytest.mark.browser
def test_the_steps_keep_the_newest_run(page):
    new, old = followed("new title"), followed("old title")
    text = draw(page, "steps", (new, ["s", 2]), (old, ["s", 1]))[1]
    assert "new title" in text and "old" not in text


@pytest.mark.browser
def test_the_steps_set_their_text_formulas_notes_and_csv_in_order(page):
    """Without KaTeX the formulas are their LaTeX, in order among the text and the chart;
    a note's $math$ is its TeX; the CSV button saves the panel's table as UTF-8 with a BOM."""
    data = followed(notes=("The cell is $a_{ij}$: the last number.",))
    text = draw(page, "steps", (data, ["s", 1]))[1]
    order = ["Every number", "The query", r"\mathbf{q}_3", "a_{3} = 0.5", "Grey keys", "Row i"]
    assert [text.index(part) for part in order] == sorted(text.index(part) for part in order)
    assert text.endswith("The cell is a_{ij}: the last number.")
    with page.expect_download() as saved:
        page.locator("#host .csv").click()
    assert saved.value.suggested_filename == "steps_row.csv"
    assert Path(saved.value.path()).read_bytes() == b"\xef\xbb\xbf" + CSV.encode()
