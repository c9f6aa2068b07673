"""Block anatomy charts: one box per step (LN steps coloured), one line per token, LN bars."""

import json

import numpy as np
import pytest

from attnviz.charts import block_anatomy as charts

from ..app.helpers import decode

TOKENS = ["the", "<b>cat</b>", "&"]


def shipped(fig):
    """The figure as the browser receives it."""
    return json.loads(fig.to_json())


def test_flow_boxes_run_top_to_bottom_with_shapes_and_residual_arrows():
    steps = ["X", "Aᴹ(X)", "X + Aᴹ(X)", "Q' = LN₁(·)", "LN₂(X')"]
    shapes = [f"3 × {d}" for d in (8, 8, 8, 8, 32)]
    fig = shipped(charts.flow(steps, shapes, [(0, 2), (2, 4)], row_px=40, font_px=13))
    boxes = [s for s in fig["layout"]["shapes"] if s["type"] == "rect"]
    assert len(boxes) == len(steps)
    rows = [(b["y0"] + b["y1"]) / 2 for b in boxes]
    assert rows == sorted(rows, reverse=True)  # the first step at the top
    ln = [b["fillcolor"] == "#fde0c5" for b in boxes]
    assert ln == [False, False, False, True, True]
    notes = fig["layout"]["annotations"]
    texts = [a for a in notes if not a.get("showarrow")]
    assert [a["text"] for a in texts[::2]] == steps  # one line each, as the formulas write them
    assert [a["text"] for a in texts[1::2]] == shapes
    assert {a["font"]["size"] for a in texts[::2]} == {13}
    for label, shape, y in zip(texts[::2], texts[1::2], rows, strict=True):
        assert label["y"] == shape["y"] == y  # each shape beside its own box
    arrows = [a for a in notes if a.get("showarrow")]
    down = [a for a in arrows if a["x"] == a["ax"]]
    assert len(down) == len(steps) - 1
    # each residual: a line from its first step's row down the left to the sum's row, and
    # an arrow from there into the sum's box; two that meet at a box take two lanes
    paths = [s for s in fig["layout"]["shapes"] if s["type"] == "path"]
    into = [a for a in arrows if a["y"] == a["ay"]]
    lanes = []
    for path, arrow, (a, b) in zip(paths, into, [(0, 2), (2, 4)], strict=True):
        (x0, y0), (x1, y1), (x2, y2) = (
            map(float, point.split(",")) for point in path["path"][2:].split(" L ")
        )
        assert x0 == boxes[a]["x0"] and boxes[a]["y0"] < y0 < rows[a] and y1 == y0
        assert x1 == x2 < x0 and y2 == rows[b]
        assert (arrow["ax"], arrow["ay"], arrow["x"], arrow["y"]) == (x2, y2, x0, rows[b])
        lanes.append(x1)
    assert lanes[0] != lanes[1]
    assert fig["layout"]["height"] == 40 * len(steps) + 10


def test_stream_norms_one_line_per_token_over_the_steps():
    norms = np.arange(12, dtype=np.float64).reshape(4, 3)  # (steps, N)
    steps = ["a", "b", "c", "d"]
    fig = shipped(charts.stream_norms(norms, steps, TOKENS, y_title="len"))
    assert [t["name"] for t in fig["data"]] == ["1:the", "2:&lt;b&gt;cat&lt;/b&gt;", "3:&amp;"]
    for i, trace in enumerate(fig["data"]):
        assert list(trace["x"]) == steps
        np.testing.assert_array_equal(decode(trace["y"]), norms[:, i].astype(np.float32))
    assert fig["layout"]["yaxis"]["title"]["text"] == "len"


def test_ln_token_bars_and_their_mean_and_spread_lines():
    rng = np.random.default_rng(0)
    before = rng.normal(3.0, 2.0, 16)
    after = (before - before.mean()) / before.std()
    fig = shipped(charts.ln_token(before, after, ("in", "out")))
    bars = [decode(t["y"]) for t in fig["data"]]
    np.testing.assert_array_equal(bars[0], before.astype(np.float32))
    np.testing.assert_array_equal(bars[1], after.astype(np.float32))
    assert [a["text"] for a in fig["layout"]["annotations"]] == ["in", "out"]
    lines = [(s["yref"], s["y0"], s["line"]["dash"]) for s in fig["layout"]["shapes"]]
    m, s = float(np.float32(before).mean()), float(np.float32(before).std())
    assert [y for ref, y, _ in lines if ref == "y"] == pytest.approx([m, m + s, m - s], rel=1e-5)
    assert [y for ref, y, _ in lines if ref == "y2"] == pytest.approx([0, 1, -1], abs=1e-5)
    assert [d for *_, d in lines] == ["solid", "dot", "dot"] * 2


def test_ln_token_lines_stand_out_from_the_bars_of_both_panels():
    """The mean and ± SD lines are dark and the bars of both panels one colour: the right
    panel's bars once took Plotly's second colour, the lines' red, and hid them."""
    before = np.linspace(-2.0, 2.0, 8)
    fig = shipped(charts.ln_token(before, before / before.std(), ("in", "out")))
    bar_colours = {t["marker"]["color"] for t in fig["data"]}
    line_colours = {s["line"]["color"] for s in fig["layout"]["shapes"]}
    assert len(bar_colours) == 1 and len(line_colours) == 1
    assert not bar_colours & line_colours
    (line,) = line_colours
    assert line in {"#222", "#222222", "black", "#000"}  # near black, as the caption says
