"""The multi-head page's grid: each tile is its head's colours, its titles' band as tall on
screen as asked."""

import numpy as np
import pytest

from attnviz.charts import multihead as charts
from attnviz.charts.raster import colour


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
