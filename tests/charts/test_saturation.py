"""The √D page's charts: histograms are densities of qᵀk and qᵀk/√D, curves carry the table."""

import json

import numpy as np
import pandas as pd
import pytest

from attnviz.charts import saturation as charts

from ..app.helpers import decode

NAMES = ("unscaled <i>", "scaled")


def shipped(fig):
    return json.loads(fig.to_json())


def curves():
    D = np.array([1, 2, 4, 8])
    rows = []
    for scaled in (False, True):
        for d in D:
            value = 1.0 if scaled else float(d)
            rows.append(
                dict(
                    D=d,
                    scaled=scaled,
                    variance=value,
                    max_weight=value / 10,
                    entropy=value / 20,
                    jacobian=value / 30,
                    saturated=value / 40,
                )
            )
    return pd.DataFrame(rows)


def test_histograms_are_densities_on_shared_bins():
    rng = np.random.default_rng(0)
    raw = rng.standard_normal((50, 8)) * 8
    fig = shipped(charts.logit_histograms(raw, 64, NAMES))
    unscaled, scaled = fig["data"]
    assert [unscaled["name"], scaled["name"]] == list(NAMES)
    lim = np.abs(raw).max()  # the unscaled logits are the wider: they set the shared range
    edges = np.linspace(-lim, lim, charts.BINS + 1)
    np.testing.assert_allclose(decode(unscaled["x"]), (edges[:-1] + edges[1:]) / 2, rtol=1e-6)
    np.testing.assert_array_equal(decode(unscaled["x"]), decode(scaled["x"]))
    for trace, values in ((unscaled, raw), (scaled, raw / 8)):
        density = decode(trace["y"])
        assert density.sum() * trace["width"] == pytest.approx(1.0, rel=1e-5)
        expected, _ = np.histogram(values.ravel(), bins=edges, density=True)
        np.testing.assert_allclose(density, expected, rtol=1e-6)


def test_variance_curve_carries_the_table_and_the_identity_line():
    table = curves()
    fig = shipped(charts.variance_curve(table, {False: 1.0, True: 0.0}, 4, NAMES))
    raw, scaled, identity = fig["data"]
    np.testing.assert_array_equal(decode(raw["x"]), [1, 2, 4, 8])
    np.testing.assert_array_equal(decode(raw["y"]), [1, 2, 4, 8])
    np.testing.assert_array_equal(decode(scaled["y"]), [1, 1, 1, 1])
    assert "slope 1.000" in raw["name"] and "slope 0.000" in scaled["name"]
    np.testing.assert_array_equal(decode(identity["x"]), decode(identity["y"]))
    assert fig["layout"]["shapes"][0]["x0"] == 4  # the chosen D


def test_softmax_curves_one_panel_per_statistic():
    titles = {c: c.upper() for c in ("max_weight", "entropy", "jacobian", "saturated")}
    table = curves()
    fig = shipped(charts.softmax_curves(table, 2, 8, NAMES, titles))
    assert [a["text"] for a in fig["layout"]["annotations"]] == list(titles.values())
    for k, col in enumerate(titles):
        for scaled, trace in zip((False, True), fig["data"][2 * k : 2 * k + 2], strict=True):
            part = table[table["scaled"] == scaled]
            np.testing.assert_array_equal(decode(trace["y"]), part[col].to_numpy(np.float32))
    log_n = [s for s in fig["layout"]["shapes"] if s["type"] == "line" and s["y0"] == s["y1"]]
    assert log_n[0]["y0"] == pytest.approx(np.log(8))


def test_weight_rows_ship_both_rows():
    a, b = np.array([0.9, 0.1]), np.array([0.6, 0.4])
    fig = shipped(charts.weight_rows(a, b, NAMES, title="t"))
    np.testing.assert_array_equal(decode(fig["data"][0]["y"]), a.astype(np.float32))
    np.testing.assert_array_equal(decode(fig["data"][1]["y"]), b.astype(np.float32))
    assert fig["layout"]["yaxis"]["range"] == [0, 1]


def test_softmax_curves_keep_their_legend_in_room_of_its_own_and_can_label_fewer_D():
    """Presenting at 1024 px, seven turned D labels a panel ran into the titles below and
    the lower labels into "D" and the legend: the legend now sits at the figure's foot in
    room Plotly reserves for it, and four labels (powers of 16) stay upright."""
    titles = {c: c for c in ("max_weight", "entropy", "jacobian", "saturated")}
    table = pd.DataFrame(
        [
            dict(D=2**k, scaled=s, max_weight=0.5, entropy=1.0, jacobian=0.3, saturated=0.0)
            for k in range(13)
            for s in (False, True)
        ]
    )
    desk = shipped(charts.softmax_curves(table, 64, 8, NAMES, titles))
    legend = desk["layout"]["legend"]
    assert legend["yref"] == "container" and legend["y"] == 0 and legend["yanchor"] == "bottom"
    assert desk["layout"]["xaxis"]["tickvals"] == [4**k for k in range(7)]  # 1 … 4096
    few = shipped(charts.softmax_curves(table, 64, 8, NAMES, titles, tick_base=16, height=760))
    for axis in ("xaxis", "xaxis2", "xaxis3", "xaxis4"):
        assert few["layout"][axis]["tickvals"] == [1, 16, 256, 4096]
    assert few["layout"]["xaxis3"]["automargin"] and few["layout"]["height"] == 760
