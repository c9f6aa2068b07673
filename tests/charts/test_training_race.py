"""Training race chart: loss (left) and accuracy (right) per step, one colour per norm."""

import json

import numpy as np
import pandas as pd
import pytest

from attnviz.charts import race_maps
from attnviz.charts import training_race as charts
from attnviz.charts.depth_gradients import NORM_COLOURS

from ..app.helpers import decode


def test_loss_left_accuracy_right_one_legend_entry_per_norm():
    steps = np.arange(1, 6)
    history = pd.concat(
        pd.DataFrame({"step": steps, "norm": n, "loss": 2.0 / steps + k, "accuracy": 0.1 * steps})
        for k, n in enumerate(("post", "pre"))
    )
    names = {"post": "Post-LN", "pre": "Pre-LN"}
    fig = json.loads(charts.race(history, names=names, titles=("L", "A"), x_title="t").to_json())
    assert [(t["name"], t["xaxis"]) for t in fig["data"]] == [
        ("Post-LN", "x"),
        ("Post-LN", "x2"),
        ("Pre-LN", "x"),
        ("Pre-LN", "x2"),
    ]
    assert [t["showlegend"] for t in fig["data"]] == [True, False, True, False]
    for trace in fig["data"]:
        norm = "post" if trace["name"] == "Post-LN" else "pre"
        part = history[history.norm == norm]
        value = "loss" if trace["xaxis"] == "x" else "accuracy"
        np.testing.assert_array_equal(decode(trace["x"]), steps)
        np.testing.assert_array_equal(decode(trace["y"]), part[value].to_numpy(np.float32))
        assert trace["line"]["color"] == NORM_COLOURS[norm] and trace["legendgroup"] == norm
    assert fig["layout"]["yaxis2"]["range"] == [0, 1.02]
    assert [fig["layout"][x]["title"]["text"] for x in ("xaxis", "xaxis2")] == ["t", "t"]
    assert [a["text"] for a in fig["layout"]["annotations"]] == ["L", "A"]


def test_the_marked_step_gets_a_line_and_a_dot_on_each_curve():
    steps = np.arange(1, 6)
    history = pd.concat(
        pd.DataFrame({"step": steps, "norm": n, "loss": 2.0 / steps + k, "accuracy": 0.1 * steps})
        for k, n in enumerate(("post", "pre"))
    )
    names = {"post": "Post-LN", "pre": "Pre-LN"}
    fig = charts.race(history, names=names, titles=("L", "A"), x_title="t", mark=3)
    fig = json.loads(fig.to_json())
    dots = [t for t in fig["data"] if t["mode"] == "markers"]
    assert [(t["name"], t["xaxis"]) for t in dots] == [
        ("Post-LN", "x"),
        ("Pre-LN", "x"),
        ("Post-LN", "x2"),
        ("Pre-LN", "x2"),
    ]
    np.testing.assert_allclose([decode(t["y"])[0] for t in dots], [2 / 3, 2 / 3 + 1, 0.3, 0.3])
    assert all(decode(t["x"]).tolist() == [3] for t in dots)
    assert [s["x0"] for s in fig["layout"]["shapes"]] == [3, 3]
    unmarked = json.loads(
        charts.race(history, names=names, titles=("L", "A"), x_title="t").to_json()
    )
    assert "shapes" not in unmarked["layout"] and len(unmarked["data"]) == 4


def test_maps_put_every_head_on_its_tile_and_leave_a_diverged_model_empty():
    L, H, n = 3, 2, 4
    rng = np.random.default_rng(1)
    post = rng.dirichlet(np.ones(n), size=(L, H, n)).astype(np.float32)
    tokens = [f"{i + 1}:{d}" for i, d in enumerate((7, 1, 5, 0))]
    fig = race_maps.maps(
        {"post": post, "pre": None},
        tokens,
        names={"post": "post-LN", "pre": "pre-LN"},
        head_label="head",
        layer_head="layer {l}, head {h}",
        dead_text="diverged",
        marks={0.25: "1/n"},
    )
    data = json.loads(fig.to_json())["data"]
    assert [t["name"] for t in data] == ["post-LN", "pre-LN"]
    z_post, z_pre = decode(data[0]["z"]), decode(data[1]["z"])
    assert np.isnan(z_pre).all()
    filled = np.zeros(z_post.shape, bool)
    for layer in range(L):
        for head in range(H):
            r, c = race_maps.tile_origin(layer, head, 0, n, H)
            np.testing.assert_array_equal(z_post[r : r + n, c : c + n], post[layer, head])
            filled[r : r + n, c : c + n] = True
            r, c = race_maps.tile_origin(layer, head, 1, n, H)
            label = data[1]["customdata"][r + 2][c + 3]  # pre-LN's half keeps its hover text
            assert label == f"layer {layer + 1}, head {head + 1}<br>3:5 → 4:0"
    assert np.isnan(z_post[~filled]).all()  # gaps between the tiles, and the other half
    notes = [a["text"] for a in fig.layout.annotations]
    assert "diverged" in notes and "<b>post-LN</b>" in notes and "<b>pre-LN</b>" in notes
    assert data[0]["colorbar"]["ticktext"] == ["0", "1/n", "1"]


@pytest.mark.parametrize("font_px", [race_maps.FONT_PX, 20])  # a desk, a projector
def test_the_maps_labels_take_the_type_size_asked_and_room_above_the_maps_for_it(font_px):
    maps = np.full((2, 3, 4, 4), 0.25, np.float32)
    fig = race_maps.maps(
        {"post": maps, "pre": None},
        ["1:7", "2:1", "3:5", "4:0"],
        names={"post": "post-LN", "pre": "pre-LN"},
        head_label="head",
        layer_head="layer {l}, head {h}",
        dead_text="diverged",
        font_px=font_px,
    )
    notes = fig.layout.annotations
    dead = next(a for a in notes if a.text == "diverged")
    assert {a.font.size for a in notes if a is not dead} == {font_px} and dead.font.size > font_px
    name = next(a for a in notes if a.text == "<b>post-LN</b>")
    head = next(a for a in notes if a.text in ("head 1", "1") and a.xanchor != "right")
    # 54–57-px maps (the default 560-px figure, 3 heads of 4 tokens a model) have room for
    # "head 3" at 12 px (about 44 px with its gaps), not at 20 (about 68): then numbers
    assert head.text == ("head 1" if font_px == race_maps.FONT_PX else "1")
    assert name.y == head.y  # both at the maps' top edge, shifted up by px
    assert name.yshift - head.yshift >= 1.2 * font_px  # a line of type between them
    assert fig.layout.margin.t >= name.yshift + font_px  # the names inside the figure
    layer = next(a for a in notes if a.text == "1" and a.xanchor == "right")
    assert fig.layout.margin.l >= 1.5 * font_px and layer.x < 0  # left of the first map


def test_scores_one_line_per_layer_and_head_in_each_model_with_the_chance_level():
    F, L, H = 5, 2, 2
    steps = np.array([0, 1, 3, 6, 10])
    rng = np.random.default_rng(2)
    scores = {k: rng.random((F, L, H)).astype(np.float32) for k in ("post", "pre")}
    fig = charts.scores(
        steps,
        scores,
        names={"post": "post-LN", "pre": "pre-LN"},
        x_title="t",
        y_title="s",
        layer_head="layer {l}, head {h}",
        chance=(0.125, "uniform"),
        mark=3,
    )
    data = json.loads(fig.to_json())["data"]
    assert len(data) == 2 * L * H + 1
    *data, chance = data  # the last: the dotted chance line's name in the legend, no data
    assert chance["name"] == "uniform" and chance["line"]["dash"] == "dot"
    assert chance["y"] == [None]
    for i, trace in enumerate(data):
        norm, (layer, head) = ("post", "pre")[i // (L * H)], divmod(i % (L * H), H)
        assert trace["name"] == f"layer {layer + 1}, head {head + 1}"
        np.testing.assert_array_equal(decode(trace["x"]), steps)
        np.testing.assert_array_equal(decode(trace["y"]), scores[norm][:, layer, head])
        assert trace["showlegend"] == (norm == "post")
    widths = {t["line"]["width"] for t in data[:H]}  # layer 1 is drawn thick
    assert widths == {3} and data[H]["line"]["width"] < 3
    shapes = fig.layout.shapes
    assert sorted(s.y0 for s in shapes if s.type == "line" and s.y0 == s.y1) == [0.125, 0.125]
    assert [s.x0 for s in shapes if s.x0 == s.x1] == [3, 3]
    # the last panel's last tick label ("100", centred on the edge) has room: r = 10 had cut it
    assert fig.layout.margin.r >= 0.5 * 3 * 12 + 4  # half of three 12 px digits, and a gap
