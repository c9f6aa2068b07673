"""The multi-head page's charts: tiles are each head's colours, and every step chart and
the query–key picture draw exactly the engine's numbers."""

import numpy as np
import pytest
import torch

import attnviz
from attnviz.charts import multihead as charts
from attnviz.charts.raster import colour
from attnviz.qkspace import qk_space
from attnviz.stepthrough import step_through


@pytest.mark.parametrize(("H", "N"), [(8, 5), (12, 40), (3, 300)])
def test_each_tile_is_its_heads_map_in_colour(H, N):
    rng = np.random.default_rng(0)
    W = rng.random((H, N, N)).astype(np.float32)
    W[H - 1, :, 2] = 5.0  # one sharp column must survive any pooling
    m = charts.head_tiles(W, zmin=0.0, zmax=5.0, width_px=520)
    cols = charts.tile_cols(H)
    assert (m.rows, m.cols) == (-(-H // cols), cols) and m.band > 0
    assert m.rgb.shape == (m.rows * m.step_y - m.gap, cols * m.step - m.gap, 3)
    for h in range(H):
        tile = m.tile(*divmod(h, cols))
        if m.cell >= N:  # whole pixels per weight: every weight's colour, repeated
            up = m.cell // N
            np.testing.assert_array_equal(tile[::up, ::up], colour(W[h], 0.0, 5.0))
        else:  # max-pooled: the sharp column stays the top colour
            assert (tile == colour(np.float32(5.0), 0.0, 5.0)).all(-1).any() == (h == H - 1)
    if H % cols:  # tiles past H are left white
        assert (m.tile(m.rows - 1, cols - 1) == 255).all()


@pytest.mark.parametrize("title_px", [charts.TITLE_PX, charts.TITLE_PX_LARGE])
def test_title_band_is_title_px_on_screen(title_px):
    """The band above each row of tiles is ``title_px`` tall once the picture is drawn
    ``width_px`` wide (to the pixel, rounded up)."""
    W = np.random.default_rng(1).random((8, 12, 12)).astype(np.float32)
    m = charts.head_tiles(W, width_px=760, title_px=title_px)
    on_screen = m.band * 760 / m.rgb.shape[1]
    assert title_px <= on_screen < title_px + 760 / m.rgb.shape[1]


@pytest.fixture(scope="module")
def traced():
    mha = attnviz.MultiHeadAttention(12, 3, score="scaled_dot", seed=2, device="cpu")
    x = torch.randn(6, 12, generator=torch.Generator().manual_seed(3))
    mask = attnviz.causal_mask(6)
    with torch.no_grad():
        _, trace = mha(x, mask=mask)
    return mha, x, mask, trace


def test_step_charts_draw_the_steps_numbers(traced):
    mha, x, mask, trace = traced
    st = step_through(trace, mha, h=1, i=3, j=2, x=x, mask=mask)
    terms = charts.terms_chart(st).data[0]
    np.testing.assert_allclose(terms.y, st.terms, rtol=1e-6)
    assert terms.x.tolist() == [1, 2, 3, 4]  # dimensions counted from 1
    row = charts.row_chart(st, list("abcdef"))
    np.testing.assert_allclose(row.data[0].y, st.s_row, rtol=1e-6)
    np.testing.assert_allclose(row.data[1].y, st.a_row, rtol=1e-6)
    colours = row.data[1].marker.color
    assert colours[2] == charts.HIGHLIGHT and colours[4] == colours[5] == charts.MUTED  # masked
    values = charts.values_chart(st)
    np.testing.assert_allclose(values.data[0].y, st.a_ij * st.v_j, rtol=1e-5)
    np.testing.assert_allclose(values.data[2].y, st.head_i, rtol=1e-5)


def test_query_key_picture_is_two_marker_traces_at_any_N():
    mha = attnviz.MultiHeadAttention(64, 2, seed=0, device="cpu")
    with torch.no_grad():
        _, trace = mha(torch.randn(512, 64))
    space = qk_space(trace, mha, h=1, query=7, k=4)
    fig = charts.qk_chart(space, [f"t{n}" for n in range(512)])
    markers = [t for t in fig.data if t.mode == "markers" and t.x is not None and len(t.x) == 512]
    assert len(markers) == 2 and [t.marker.symbol for t in markers] == ["circle", "diamond"]
    np.testing.assert_allclose(markers[0].x, space.queries[:, 0], rtol=1e-6)
    np.testing.assert_allclose(markers[1].y, space.keys[:, 1], rtol=1e-6)
    lines = [t for t in fig.data if t.mode == "lines"]
    assert len(lines) == 4
    widths = [t.line.width for t in lines]
    assert widths == sorted(widths, reverse=True) and widths[0] == 10  # the largest weight
    np.testing.assert_allclose(
        lines[0].x, [space.queries[7, 0], space.keys[space.top_keys[0], 0]], rtol=1e-6
    )
    assert markers[0].text[7] == "8:t7"  # hover: the token, counted from 1
