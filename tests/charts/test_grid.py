"""A grid of heads: every head's map in one figure, one PNG when large."""

import base64
import io

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from PIL import Image

from attnviz import charts
from attnviz.charts.raster import colour


def _png(source: str) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(base64.b64decode(source.split(",", 1)[1]))))


@pytest.mark.parametrize(("N", "show"), [(256, "weights"), (200, "scores")])
def test_large_head_grid_is_one_image_of_max_pooled_maps(N, show):
    rng = np.random.default_rng(0)
    maps = rng.standard_normal((12, N, N)).astype(np.float32)
    if show == "weights":
        maps = np.exp(maps) / np.exp(maps).sum(-1, keepdims=True)
    maps[5, 17, 3] = maps.max() + 1.0  # one sharp peak must survive the pooling
    lo, hi = float(maps.min()), float(maps.max())
    fig = charts.head_grid(maps, [f"t{i}" for i in range(N)], zmin=lo, zmax=hi, width_px=520)
    assert [t.type for t in fig.data] == ["image"]
    img = _png(fig.data[0].source)
    f = -(-N // (520 // 4))  # pooling factor: a tile is at most 130 px wide
    pooled = F.max_pool2d(torch.from_numpy(maps)[:, None], f, ceil_mode=True)[:, 0].numpy()
    n = pooled.shape[-1]
    step = n + max(2, n // 16)
    step_y = img.shape[0] // 3  # each row of tiles: a band for the titles, then the tiles
    top = step_y - n
    assert img.shape[1:] == (4 * step, 3) and img.shape[0] == 3 * step_y and top >= step - n
    for h in (0, 5, 11):
        r, c = divmod(h, 4)
        tile = img[r * step_y + top : (r + 1) * step_y, c * step : c * step + n]
        np.testing.assert_array_equal(tile, colour(pooled[h], lo, hi))
        assert (img[r * step_y : r * step_y + top, c * step : c * step + n] == 255).all()
    peak = img[step_y + top + 17 // f, step + 3 // f]  # head 5: row 1, column 1
    np.testing.assert_array_equal(peak, colour(np.float32(hi), lo, hi))
    # the chapter counts heads from 1, and so do the default titles
    assert [a.text for a in fig.layout.annotations] == [f"head {h}" for h in range(1, 13)]
