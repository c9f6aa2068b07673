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


def test_flow_has_a_box_and_shape_per_step_and_colours_the_ln_steps():
    steps = ["X", "MHA(X)", "X + MHA(X)", "Q' = LN₁(·)", "LN₂(X')"]
    shapes = [f"3 × {d}" for d in (8, 8, 8, 8, 32)]
    fig = shipped(charts.flow(steps, shapes, height=200))
    boxes = fig["layout"]["shapes"]
    assert len(boxes) == len(steps)
    assert [b["x0"] for b in boxes] == pytest.approx([k + 0.08 for k in range(len(steps))])
    ln = [b["fillcolor"] == "#fde0c5" for b in boxes]
    assert ln == [False, False, False, True, True]
    notes = fig["layout"]["annotations"]
    texts = [a["text"] for a in notes if not a.get("showarrow")]
    assert texts[::2] == ["X", "MHA(X)", "X <br>+ MHA(X)", "Q'<br>= LN₁(·)", "LN₂(X')"]
    assert texts[1::2] == shapes
    assert sum(bool(a.get("showarrow")) for a in notes) == len(steps) - 1  # arrows between
    assert fig["layout"]["height"] == 200


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
