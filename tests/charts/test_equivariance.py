"""The equivariance page's charts: the maps ship the matrices given, labels are escaped."""

import json

import numpy as np

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


def test_difference_map_is_symmetric_about_zero():
    diff = np.array([[0.5, -2.0], [1.0, 0.0], [0.0, 0.25]])
    fig = shipped(charts.difference_map(diff, TOKENS, title="t", x_title="dim"))
    trace = fig["data"][0]
    np.testing.assert_array_equal(decode(trace["z"]), diff.astype(np.float32))
    assert (trace["zmin"], trace["zmax"]) == (-2.0, 2.0)
    assert fig["layout"]["yaxis"]["ticktext"][0] == "1:&lt;b&gt;x&lt;/b&gt;"
    zero = shipped(charts.difference_map(np.zeros((3, 2)), TOKENS))["data"][0]
    assert zero["zmax"] > 0  # a zero difference still has a valid colour range


def test_permutation_matrix_is_I_of_perm():
    fig = shipped(charts.permutation_matrix(PERM, TOKENS))
    P = decode(fig["data"][0]["z"])
    np.testing.assert_array_equal(P, np.eye(3, dtype=np.float32)[PERM])
    assert fig["layout"]["xaxis"]["ticktext"] == ["1:&lt;b&gt;x&lt;/b&gt;", "2:y", "3:z"]
    assert fig["layout"]["yaxis"]["ticktext"] == ["1:z", "2:&lt;b&gt;x&lt;/b&gt;", "3:y"]
