"""The equivariance page's charts: the maps ship the matrices given, labels are escaped."""

import json

import numpy as np
import pytest

from attnviz.charts import equivariance as charts

from ..app.helpers import decode

TOKENS = ["<b>x</b>", "y", "z"]
PERM = np.array([2, 0, 1])


def shipped(fig):
    return json.loads(fig.to_json())


def test_triplet_ships_each_map_on_one_scale_with_escaped_hover():
    rng = np.random.default_rng(0)
    A, A_P, PAPt = rng.random((3, 3, 3))
    perm_tokens = [TOKENS[k] for k in PERM]
    fig = shipped(charts.attention_triplet(A, A_P, PAPt, TOKENS, perm_tokens, ("a", "b", "c")))
    for trace, z in zip(fig["data"], (A, A_P, PAPt), strict=True):
        np.testing.assert_array_equal(decode(trace["z"]), z.astype(np.float32))
    assert fig["layout"]["coloraxis"]["cmax"] == float(np.max([A, A_P, PAPt]))
    assert fig["data"][0]["customdata"][0][1] == "1:&lt;b&gt;x&lt;/b&gt; → 2:y"
    assert fig["data"][1]["customdata"][1][1] == "2:&lt;b&gt;x&lt;/b&gt; → 2:&lt;b&gt;x&lt;/b&gt;"
    assert fig["layout"]["xaxis"]["ticktext"] == ["1:&lt;b&gt;x&lt;/b&gt;", "2:y", "3:z"]
    assert fig["layout"]["xaxis2"]["ticktext"] == ["1:z", "2:&lt;b&gt;x&lt;/b&gt;", "3:y"]
    # each row label names the row's token: A(PX)'s rows are permuted, so they are named
    # again beside it (not read off A(X)'s); P A Pᵀ, beside A(PX), has the same rows
    for axis, words in (("yaxis", TOKENS), ("yaxis2", perm_tokens)):
        assert fig["layout"][axis]["showticklabels"]
        shown = [w.split(":", 1)[1] for w in fig["layout"][axis]["ticktext"]]
        assert shown == [w.replace("<", "&lt;").replace(">", "&gt;") for w in words]
    assert not fig["layout"]["yaxis3"]["showticklabels"]
    x1, x2, x3 = (fig["layout"][a]["domain"] for a in ("xaxis", "xaxis2", "xaxis3"))
    assert x2[0] - x1[1] > 2 * (x3[0] - x2[1])  # room for A(PX)'s labels


def test_difference_map_is_relative_to_the_outputs_and_symmetric_about_zero():
    """Δ / max|f| on a scale of at least ±1: a difference of 3e-7 on outputs of size 3 is
    white (1e-7 of the range), where on its own scale it was the deepest red; a difference
    larger than the outputs widens the scale to its own size."""
    diff = np.array([[0.5, -2.0], [1.0, 0.0], [0.0, 0.25]])
    fig = shipped(charts.difference_map(diff, TOKENS, scale=4.0, title="t", x_title="dim"))
    trace = fig["data"][0]
    np.testing.assert_array_equal(decode(trace["z"]), (diff / 4).astype(np.float32))
    assert (trace["zmin"], trace["zmax"]) == (-1.0, 1.0)
    assert fig["layout"]["yaxis"]["ticktext"][0] == "1:&lt;b&gt;x&lt;/b&gt;"
    assert not fig["layout"].get("annotations")
    wide = shipped(charts.difference_map(diff, TOKENS, scale=0.5))["data"][0]
    assert (wide["zmin"], wide["zmax"]) == (-4.0, 4.0)
    tiny = np.array([[3e-7, -1e-7], [0.0, 2e-7], [0.0, 0.0]])
    fig = shipped(
        charts.difference_map(tiny, TOKENS, scale=3.0, note="rounding only", bar_title="b")
    )
    trace = fig["data"][0]
    assert np.abs(decode(trace["z"])).max() <= 1e-7 * (trace["zmax"] - trace["zmin"])
    (note,) = fig["layout"]["annotations"]
    assert note["text"] == "rounding only" and note["font"]["size"] >= 18
    assert trace["colorbar"]["title"]["text"] == "b"
    zero = shipped(charts.difference_map(np.zeros((3, 2)), TOKENS, scale=0.0))["data"][0]
    assert zero["zmax"] > 0  # a zero difference still has a valid colour range


def test_permutation_matrix_is_I_of_perm():
    fig = shipped(charts.permutation_matrix(PERM, TOKENS))
    P = decode(fig["data"][0]["z"])
    np.testing.assert_array_equal(P, np.eye(3, dtype=np.float32)[PERM])
    assert fig["layout"]["xaxis"]["ticktext"] == ["1:&lt;b&gt;x&lt;/b&gt;", "2:y", "3:z"]
    assert fig["layout"]["yaxis"]["ticktext"] == ["1:z", "2:&lt;b&gt;x&lt;/b&gt;", "3:y"]


def test_stacked_maps_lie_one_under_another_with_a_projectors_tokens():
    """Presenting, three maps side by side were about 85 px wide each, their tokens at 12 px:
    stacked, each map has the column's width, its rows labelled, its tokens at 20 px, and
    between two maps room for the upper one's turned labels and the lower one's title."""
    rng = np.random.default_rng(1)
    A, A_P, PAPt = rng.random((3, 3, 3))
    perm_tokens = [TOKENS[k] for k in PERM]
    figure = charts.attention_triplet(
        A, A_P, PAPt, TOKENS, perm_tokens, ("a", "b", "c"), stacked=True
    )
    fig = shipped(figure)
    layout = fig["layout"]
    x = [layout[f"xaxis{k}"]["domain"] for k in ("", "2", "3")]
    y = [layout[f"yaxis{k}"]["domain"] for k in ("", "2", "3")]
    assert x == [[0.0, 1.0]] * 3  # each map as wide as the figure's plot area
    assert 1.0 == y[0][1] > y[0][0] > y[1][1] > y[1][0] > y[2][1] > y[2][0] >= 0.0
    # the three maps are as tall and share the height between the margins
    plot = layout["height"] - layout["margin"]["t"] - layout["margin"]["b"]
    tall = {round((top - bottom) * plot) for bottom, top in y}
    assert tall == {charts.STACKED_MAP_PX}
    gap = (y[0][0] - y[1][1]) * plot  # the upper map's labels and the lower one's title (px)
    longest = len("1:<b>x</b>")  # the widest label, 10 columns at about half an em each
    assert gap >= 0.5 * longest * charts.STACKED_TICK_PX + charts.PANEL_TITLE_PX
    assert layout["margin"]["b"] >= 0.5 * longest * charts.STACKED_TICK_PX  # the last's
    for k, toks in zip(("", "2", "3"), (TOKENS, perm_tokens, perm_tokens), strict=True):
        for axis in (f"xaxis{k}", f"yaxis{k}"):
            assert layout[axis]["tickfont"]["size"] >= 16, axis  # 12 side by side
            assert layout[axis]["showticklabels"], axis  # P A Pᵀ names its rows too
        shown = [w.split(":", 1)[1] for w in layout[f"yaxis{k}"]["ticktext"]]
        assert shown == [w.replace("<", "&lt;").replace(">", "&gt;") for w in toks]
    # each title over its map; the one colour bar beside the first map, not along all three
    assert [(a["text"], a["y"]) for a in layout["annotations"]] == [
        (t, top) for t, (_, top) in zip("abc", y, strict=True)
    ]
    bar = layout["coloraxis"]["colorbar"]
    assert (bar["y"], bar["yanchor"]) == (1, "top")
    assert bar["len"] == pytest.approx(y[0][1] - y[0][0])
    side = shipped(charts.attention_triplet(A, A_P, PAPt, TOKENS, perm_tokens, ("a", "b", "c")))
    assert side["layout"]["xaxis"]["tickfont"]["size"] == 12  # the desk keeps its layout
    assert side["layout"]["height"] == 420
