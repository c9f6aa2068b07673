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
        np.testing.assert_array_equal(decode(trace["x"]), np.arange(3))
    assert fig["layout"]["barmode"] == "group"
    assert fig["layout"]["xaxis"]["ticktext"] == labels


def test_position_labels_default_to_the_order_given():
    assert charts.position_labels(["a", "b"]) == ["1:a", "2:b"]
