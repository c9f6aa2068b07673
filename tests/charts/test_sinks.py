"""The sink grid: one layer × head map per category, their shares adding up to one."""

import numpy as np

from attnviz.charts.sinks import layer_shares, sink_grid


def test_sink_grid_draws_each_category_as_a_layer_by_head_map():
    rng = np.random.default_rng(3)
    shares = rng.dirichlet(np.ones(4), size=(6, 12)).transpose(2, 0, 1)  # (4, 6, 12), sums to 1
    fig = sink_grid(
        shares,
        ["[CLS]", "[SEP]", "P", "R"],
        layer_label="L{l}",
        head_label="H{h}",
        cell_name="層 {l}・ヘッド {h}",
    )
    assert [t.type for t in fig.data] == ["heatmap"] * 4
    total = sum(np.asarray(t.z, dtype=np.float64) for t in fig.data)
    np.testing.assert_allclose(total, 1.0, atol=1e-6)
    assert fig.data[0].customdata[5][11] == "層 6・ヘッド 12"  # layers and heads from 1
    assert fig.layout.yaxis.ticktext[5] == "L6" and fig.layout.xaxis.ticktext[-1] == "H11"
    assert [t.showscale for t in fig.data] == [False, False, False, True]  # one colour bar
    assert [a.text for a in fig.layout.annotations] == ["[CLS]", "[SEP]", "P", "R"]
    for note, heat in zip(fig.layout.annotations, fig.data, strict=True):  # over its panel
        axis = fig.layout[heat.xaxis.replace("x", "xaxis")]
        assert note.x == sum(axis.domain) / 2 and note.xanchor == "center"
    bar = fig.data[-1].colorbar  # its labels under their ticks: the "1" had sat on the title
    assert bar.title.text == "share" and bar.ticklabelposition == "outside bottom"


def test_panel_titles_of_two_lines_get_room_above_the_grids():
    shares = np.full((2, 3, 4), 0.5)
    one = sink_grid(shares, ["P", "R"], title_px=16)
    two = sink_grid(shares, ["P", "other<br>tokens R"], title_px=16)
    assert two.layout.margin.t - one.layout.margin.t == round(1.3 * 16)  # a line of 16 px
    assert one.layout.margin.t >= 1.3 * 16 + 10


def test_layer_shares_put_weight_beside_contribution_per_layer():
    layers = np.random.default_rng(0).random((2, 3, 6))
    fig = layer_shares(layers, ["[CLS]", "[SEP]", "P"], series_names=("w", "c"))
    assert [t.type for t in fig.data] == ["bar"] * 6 and fig.layout.barmode == "group"
    for c in range(3):  # per category: weight, then contribution, over layers 1 … 6
        for s in range(2):
            bar = fig.data[2 * c + s]
            np.testing.assert_allclose(bar.y, layers[s, c])
            assert bar.name == ("w", "c")[s] and bar.showlegend == (c == 0)
    assert list(fig.data[0].x) == [f"layer {k}" for k in range(1, 7)]
    assert [a.text for a in fig.layout.annotations] == ["[CLS]", "[SEP]", "P"]
