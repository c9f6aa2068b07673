"""Positional-encoding charts: the heat map is the table as given, the bars the rows given."""

import json

import numpy as np

from attnviz.charts import positional as charts

from ..app.helpers import decode


def shipped(fig):
    """The figure as the browser receives it."""
    return json.loads(fig.to_json())


def test_matrix_ships_the_table_rows_top_to_bottom_centred_at_zero():
    P = np.arange(12, dtype=np.float64).reshape(3, 4) - 5
    fig = shipped(charts.matrix(P, title="t", x_title="dim", y_title="pos"))
    heat = fig["data"][0]
    np.testing.assert_array_equal(decode(heat["z"]), P.astype(np.float32))
    assert heat["zmid"] == 0 and heat["colorscale"][0][1] != heat["colorscale"][-1][1]
    assert fig["layout"]["yaxis"]["autorange"] == "reversed"
    assert fig["layout"]["xaxis"]["title"]["text"] == "dim"
    assert fig["layout"]["yaxis"]["title"]["text"] == "pos"
    assert "zmid" not in shipped(charts.matrix(P, zmid=None))["data"][0]


def test_rows_are_grouped_bars_over_escaped_key_tokens():
    values = {"position 0": np.array([0.5, 0.3, 0.2]), "position 2": np.array([0.1, 0.1, 0.8])}
    fig = shipped(charts.rows(values, ["the", "<i>dog</i>", "the"], y_title="w"))
    assert fig["layout"]["barmode"] == "group"
    assert [t["name"] for t in fig["data"]] == list(values)
    for trace, v in zip(fig["data"], values.values(), strict=True):
        assert list(trace["x"]) == ["1:the", "2:&lt;i&gt;dog&lt;/i&gt;", "3:the"]
        np.testing.assert_array_equal(decode(trace["y"]), v.astype(np.float32))


def test_rows_label_every_token_and_take_the_range_given():
    """Plotly's own ticks labelled every other token at 1024 px, one of the two compared
    positions among the unlabelled; charts compared side by side share one y range."""
    tokens = [f"w{k}" for k in range(12)]
    values = {"a": np.linspace(0, 0.1, 12), "b": np.linspace(0.1, 0, 12)}
    fig = shipped(charts.rows(values, tokens, y_max=0.13))
    labels = [f"{k + 1}:w{k}" for k in range(12)]
    assert fig["layout"]["xaxis"]["tickvals"] == labels
    assert fig["layout"]["xaxis"]["ticktext"] == labels
    assert fig["layout"]["yaxis"]["range"] == [0, 0.13]
    many = shipped(charts.rows({"a": np.ones(charts.TICK_LABELS_MAX_N + 1)}, ["w"] * 41))
    assert "tickvals" not in many["layout"]["xaxis"]  # long rows: Plotly's ticks, hover
    assert "range" not in shipped(charts.rows(values, tokens))["layout"]["yaxis"]
