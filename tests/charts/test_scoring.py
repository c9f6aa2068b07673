"""The scoring page's charts: the bars carry the values given, labels are escaped tokens."""

import json

import numpy as np

from attnviz.charts import scoring as charts

from ..app.helpers import decode

TOKENS = ["the", "<b>cat</b>", "&", "sat"]


def shipped(fig):
    """The figure as the browser receives it."""
    return json.loads(fig.to_json())


def test_weights_bar_ships_the_values_and_escaped_labels():
    values = np.array([0.1, 0.2, 0.3, 0.4], dtype=np.float64)
    fig = shipped(charts.weights_bar(values, TOKENS, title="a", y_title="w"))
    bar = fig["data"][0]
    np.testing.assert_array_equal(decode(bar["y"]), values.astype(np.float32))
    labels = ["1:the", "2:&lt;b&gt;cat&lt;/b&gt;", "3:&amp;", "4:sat"]
    assert fig["layout"]["xaxis"]["ticktext"] == labels
    assert list(bar["customdata"]) == labels
    assert fig["layout"]["title"]["text"] == "a" and fig["layout"]["yaxis"]["title"]["text"] == "w"


def test_grouped_bars_one_trace_per_series_by_position():
    before, after = np.array([0.5, 0.25, 0.25]), np.array([0.25, 0.5, 0.25])
    labels = charts.position_labels(TOKENS[:3], np.array([2, 0, 1]))
    assert labels == ["1:&amp;", "2:the", "3:&lt;b&gt;cat&lt;/b&gt;"]  # token now at each place
    fig = shipped(charts.grouped_bars({"before": before, "after": after}, labels, y_title="a"))
    assert [t["name"] for t in fig["data"]] == ["before", "after"]
    for trace, values in zip(fig["data"], (before, after), strict=True):
        np.testing.assert_array_equal(decode(trace["y"]), values.astype(np.float32))
        np.testing.assert_array_equal(decode(trace["x"]), np.arange(1, 4))  # from 1
    assert fig["layout"]["barmode"] == "group"
    assert fig["layout"]["xaxis"]["ticktext"] == labels


def test_bars_over_many_sources_number_their_axis_and_keep_the_labels_for_hover():
    """Above TICK_LABELS_MAX_N bars the axis gets Plotly's own numbered ticks (512 token
    labels took Chromium about 40 s to lay out); every label stays in the hover."""
    tokens = [f"w{i}" for i in range(charts.TICK_LABELS_MAX_N + 1)]
    labels = charts.position_labels(tokens)
    for fig in (
        shipped(charts.weights_bar(np.ones(len(tokens)), tokens)),
        shipped(charts.grouped_bars({"a": np.ones(len(tokens))}, labels)),
    ):
        assert "ticktext" not in fig["layout"]["xaxis"] and "tickvals" not in fig["layout"]["xaxis"]
        np.testing.assert_array_equal(decode(fig["data"][0]["x"]), np.arange(1, len(tokens) + 1))
        assert list(fig["data"][0]["customdata"]) == labels
    few = shipped(charts.weights_bar(np.ones(3), tokens[:3]))
    assert few["layout"]["xaxis"]["ticktext"] == labels[:3]


def test_position_labels_default_to_the_order_given():
    assert charts.position_labels(["a", "b"]) == ["1:a", "2:b"]


def test_grouped_bars_legend_sits_at_the_foot_in_room_of_its_own():
    """Above the plot, at presentation mode's 20 px the legend lay under the title and over
    the top gridline; referred to the container, Plotly reserves its own room below."""
    fig = shipped(charts.grouped_bars({"a": np.ones(3), "b": np.ones(3)}, ["x", "y", "z"]))
    legend = fig["layout"]["legend"]
    assert legend["yref"] == "container" and legend["y"] == 0 and legend["yanchor"] == "bottom"


def test_matrix_names_its_rows_in_the_hover_apart_from_the_axis():
    """Short row labels on the axis (formulas), the full names in each cell's hover."""
    z = np.full((2, 3), 1 / 3)
    fig = shipped(charts.matrix(z, ["a", "b", "c"], ["zᵀq", "zᵀWq"], y_hover=["dot", "bilinear"]))
    assert fig["layout"]["yaxis"]["ticktext"] == ["zᵀq", "zᵀWq"]
    hover = np.array(fig["data"][0]["customdata"])
    assert hover[1, 2] == "bilinear → c" and hover[0, 0] == "dot → a"
    plain = shipped(charts.matrix(z, ["a", "b", "c"], ["p", "q"]))
    assert np.array(plain["data"][0]["customdata"])[1, 0] == "q → a"  # the axis labels by default
