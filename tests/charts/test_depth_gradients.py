"""Gradients-by-depth chart: a shaded mean ± std band and a line per norm, the reference."""

import json

import numpy as np
import pandas as pd
import pytest

from attnviz.charts import depth_gradients as charts

from ..app.helpers import decode

STATS = pd.DataFrame(
    {
        "norm": ["post"] * 3 + ["pre"] * 3,
        "L": [1, 2, 4] * 2,
        "mean": [1.0, 1.1, 1.2, 0.8, 0.6, 0.4],
        "std": [0.1, 0.0, 0.2, 0.05, 0.05, 0.0],
    }
)


def shipped(fig):
    """The figure as the browser receives it."""
    return json.loads(fig.to_json())


def test_band_per_norm_is_mean_plus_minus_std_around_its_line():
    names = {"post": "post-LN", "pre": "pre-LN"}
    fig = shipped(charts.band(STATS, "L", names=names, title="t", x_title="L", y_title="g"))
    assert len(fig["data"]) == 4  # band, line for each norm
    for k, norm in enumerate(("post", "pre")):
        band, line = fig["data"][2 * k : 2 * k + 2]
        part = STATS[STATS.norm == norm]
        m, s = part["mean"].to_numpy(np.float32), part["std"].to_numpy(np.float32)
        np.testing.assert_array_equal(decode(band["x"]), [1, 2, 4, 4, 2, 1])
        np.testing.assert_array_equal(decode(band["y"]), np.concatenate([m + s, (m - s)[::-1]]))
        assert band["fill"] == "toself" and band["showlegend"] is False
        assert line["name"] == names[norm] and line["line"]["color"] == charts.NORM_COLOURS[norm]
        np.testing.assert_array_equal(decode(line["y"]), m)
        np.testing.assert_array_equal(decode(line["error_y"]["array"]), s)
    assert "type" not in fig["layout"]["xaxis"]  # linear unless log


def test_reference_line_and_log_axes():
    Ls = np.array([1.0, 2.0, 4.0])
    fig = shipped(charts.band(STATS, "L", names={}, log=True, reference=(Ls, 2 / np.sqrt(Ls), "r")))
    ref = fig["data"][-1]
    assert ref["name"] == "r" and ref["line"]["dash"] == "dash"
    np.testing.assert_array_equal(decode(ref["y"]), (2 / np.sqrt(Ls)).astype(np.float32))
    assert fig["layout"]["xaxis"]["type"] == "log" and fig["layout"]["yaxis"]["type"] == "log"
    # a depth tick at each depth measured, none between (Plotly's own put 9 before 1 and
    # 2 after 10 on a log axis); norms labelled at 1, 2, 5 of a decade
    xaxis = fig["layout"]["xaxis"]
    assert list(decode(xaxis["tickvals"])) == [1, 2, 4] and xaxis["tickmode"] == "array"
    # the data spans 0.4 … 1.4 (bands) and 1 … 2 (reference): 0.1 … 50 as 1, 2, 5
    assert list(decode(fig["layout"]["yaxis"]["tickvals"])) == pytest.approx(
        [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50]
    )
    assert [t["name"] for t in fig["data"] if t.get("mode") == "lines+markers"] == ["post", "pre"]


def test_log_y_alone_and_powers_of_ten_over_many_decades():
    """The stream's lengths: a linear block axis (it starts at 0, the input) and a log length
    axis; over more than four decades (no LN) the ticks are the powers of ten alone."""
    stats = pd.DataFrame(
        {
            "norm": ["post"] * 3 + ["none"] * 3,
            "block": [0, 1, 2] * 2,
            "mean": [8.0, 8.0, 8.0, 8.0, 300.0, 2e5],
            "std": [0.5, 0.0, 0.0, 0.5, 20.0, 1e4],
        }
    )
    fig = shipped(charts.band(stats, "block", names={}, log_y=True))
    assert "type" not in fig["layout"]["xaxis"] and fig["layout"]["yaxis"]["type"] == "log"
    assert list(decode(fig["layout"]["yaxis"]["tickvals"])) == pytest.approx(
        [1, 10, 100, 1e3, 1e4, 1e5, 1e6]
    )
    lines = [t for t in fig["data"] if t.get("mode") == "lines+markers"]
    assert [t["line"]["color"] for t in lines] == [charts.NORM_COLOURS[n] for n in ("post", "none")]


def test_a_narrow_log_range_gets_ticks_inside_it():
    """Post-LN's last layer spans 5.5 … 9.3 at the page's defaults: 1-2-5 ticks put none
    inside but 5 and 10 at its edges, so the axis showed no number; 1 … 9 per decade do."""
    stats = pd.DataFrame({"norm": ["post"] * 3, "L": [1, 2, 4], "mean": [5.5, 7.0, 9.3]})
    stats["std"] = 0.0
    fig = shipped(charts.band(stats, "L", names={}, log=True))
    ticks = list(decode(fig["layout"]["yaxis"]["tickvals"]))
    assert [v for v in ticks if 5.5 <= v <= 9.3] == pytest.approx([6, 7, 8, 9])


def test_a_shared_top_puts_two_panels_on_one_axis_from_zero():
    """The top is 5 % above the highest mean + std of every stats given and of any extra
    line; with it, the y-axis is linear from 0 and the x-axis alone may be logarithmic."""
    post, pre = STATS[STATS.norm == "post"], STATS[STATS.norm == "pre"]
    top = charts.shared_top(post, pre)
    assert top == pytest.approx(1.05 * 1.4)  # post at L = 4: 1.2 + 0.2
    assert charts.shared_top(pre, extra=(np.array([3.0, 1.0]),)) == pytest.approx(3.15)
    figs = [shipped(charts.band(s, "L", names={}, log_x=True, y_max=top)) for s in (post, pre)]
    for fig in figs:
        assert fig["layout"]["yaxis"]["range"] == pytest.approx([0, top])
        assert "type" not in fig["layout"]["yaxis"] and fig["layout"]["xaxis"]["type"] == "log"
