"""The real-model charts: the mosaic is one image of every head's map, the lines view draws
every weight above its threshold."""

import base64
import io

import numpy as np
import pytest
from PIL import Image

from attnviz.charts import Mosaic, lines_view, model_grid, mosaic
from attnviz.charts.raster import colour


def _png(fig) -> np.ndarray:
    src = fig.data[0].source
    return np.asarray(Image.open(io.BytesIO(base64.b64decode(src.split(",", 1)[1]))))


@pytest.mark.parametrize("N", [10, 200])
def test_model_grid_is_one_image_of_every_head(N):
    rng = np.random.default_rng(1)
    A = rng.random((6, 12, N, N)).astype(np.float32)
    A /= A.sum(-1, keepdims=True)
    A[4, 7] = 0.0
    A[4, 7, :, 0] = 1.0  # one head that reads only token 0
    fig = model_grid(A, selected=(4, 7))
    assert [t.type for t in fig.data] == ["image", "scatter"]
    img = _png(fig)[..., :3]
    n = -(-N // -(-N // 96))  # cell side after max-pooling (N=200: 67)
    step = n + max(2, n // 12)
    assert img.shape[:2] == (6 * step - (step - n), 12 * step - (step - n))
    cell = img[4 * step : 4 * step + n, 7 * step : 7 * step + n]
    one, zero = colour(np.float32(1.0), 0, 1), colour(np.float32(0.0), 0, 1)
    np.testing.assert_array_equal(cell[:, 0], np.broadcast_to(one, (n, 3)))
    np.testing.assert_array_equal(cell[:, -1], np.broadcast_to(zero, (n, 3)))
    assert len(fig.data[1].x) == 72 and fig.layout.shapes[0].line.color == "red"
    # layers and heads counted from 1, as the chapter counts them: cell (4, 7) is the 5th, 8th
    assert fig.data[1].text[4 * 12 + 7] == "layer 5, head 8"
    texts = [a.text for a in fig.layout.annotations]
    assert texts[:12] == [f"head {h}" for h in range(1, 13)] and texts[12] == "layer 1"


def test_lines_view_draws_every_weight_above_the_threshold():
    W = np.array([[0.9, 0.1, 0.0], [0.5, 0.5, 0.0], [0.01, 0.0, 0.99]], dtype=np.float32)
    fig = lines_view(W, ["a", "b", "c"], min_weight=0.02)
    segments = sum(
        int(np.isnan(np.asarray(t.x, dtype=float)).sum()) for t in fig.data if t.mode == "lines"
    )
    assert segments == int((W >= 0.02).sum()) == 5


def test_mosaic_cell_is_each_heads_map_and_its_png_round_trips():
    rng = np.random.default_rng(2)
    A = rng.random((2, 3, 7, 7)).astype(np.float32)
    m = mosaic(A)
    assert (m.rows, m.cols, m.cell, m.gap) == (2, 3, 7, 2)
    cell = m.rgb[1 * m.step : 1 * m.step + 7, 2 * m.step : 2 * m.step + 7]
    np.testing.assert_array_equal(cell, colour(A[1, 2], 0.0, 1.0))
    png = np.asarray(Image.open(io.BytesIO(m.png())))
    np.testing.assert_array_equal(png, m.rgb)


def test_mosaic_band_moves_every_row_down():
    m = Mosaic(
        np.zeros((2 * 14 - 2, 3 * 9 - 2, 3), np.uint8), rows=2, cols=3, cell=7, gap=2, band=5
    )
    assert (m.step, m.step_y) == (9, 14)
    m.rgb[5 + 14 : 5 + 14 + 7, 9:16] = 200  # tile (1, 1)
    assert (m.tile(1, 1) == 200).all() and (m.tile(0, 1) == 0).all()
