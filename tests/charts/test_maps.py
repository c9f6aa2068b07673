"""Chart builders that pre-colour images: their pixels are the maps, pooled by PyTorch's rule."""

import base64
import io

import numpy as np
import plotly.colors
import pytest
import torch
import torch.nn.functional as F
from PIL import Image

from attnviz import charts
from attnviz.charts import equivariance, scoring
from attnviz.charts.maps import counted
from attnviz.charts.raster import colour


def _viridis(t) -> np.ndarray:
    """Oracle: Plotly's own Viridis sampled at fractions t of the range, as (len(t), 3) RGB."""
    samples = plotly.colors.sample_colorscale("Viridis", list(t))
    return np.array([plotly.colors.unlabel_rgb(c) for c in samples], dtype=float)


def test_colours_are_plotlys_viridis_from_zmin_to_zmax():
    """zmin (and below) is Viridis's first colour #440154, zmax (and above) its last, #fde725;
    a value a fraction t up the range is within one of the table's 256 steps of Viridis(t)."""
    lo, hi = -2.0, 3.0
    ends = colour(np.array([lo, lo - 1.0, hi, hi + 5.0]), lo, hi)
    first, last = _viridis([0, 1])
    np.testing.assert_array_equal(first, [0x44, 0x01, 0x54])
    np.testing.assert_array_equal(last, [0xFD, 0xE7, 0x25])
    np.testing.assert_array_equal(ends, [first, first, last, last])
    t = np.array([0.1, 0.25, 0.37, 0.63, 0.8])
    got = colour(lo + t * (hi - lo), lo, hi).astype(float)
    step = np.abs(_viridis(t) - _viridis(t - 1 / 255)).max(-1, keepdims=True) + 1  # + rounding
    assert (np.abs(got - _viridis(t)) <= step).all(), (got, _viridis(t))


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
    assert [a.text for a in fig.layout.annotations] == [f"head {h}" for h in range(12)]


def _counts_from_one(fig, n_y: int, n_x: int) -> None:
    """Every heat map trace's rows and columns are 1 … n: the axes count the tokens (and a
    difference map's dimensions) from 1, as the labels and the chapter do."""
    for trace in (t for t in fig.data if t.type == "heatmap"):
        assert np.asarray(trace.x).tolist() == list(range(1, n_x + 1))
        assert np.asarray(trace.y).tolist() == list(range(1, n_y + 1))


def test_heat_maps_count_their_cells_from_one_beyond_their_tick_labels():
    n = 50  # more than TICK_LABELS_MAX_N: the axes show numbers, not tokens
    z, toks = np.random.default_rng(0).random((n, n)), [f"w{k}" for k in range(n)]
    _counts_from_one(charts.heatmap(z, toks, toks), n, n)
    _counts_from_one(scoring.matrix(z[:3], toks, toks[:3]), 3, n)
    _counts_from_one(equivariance.attention_triplet(z, z, z, toks, toks, ("a", "b", "c")), n, n)
    _counts_from_one(equivariance.difference_map(z[:, :8], toks), n, 8)
    kept = charts.heatmap(z[:3, :3], list("abc"), list("abc"), x_positions=[1, 2, 4])
    assert np.asarray(kept.data[0].x).tolist() == [2, 3, 5]  # positions 1, 2, 4 from 0


@pytest.mark.parametrize("n", [1, 2, 3, 7, 9, 16, 40, 64, 512, 1024])
def test_a_counted_axis_ticks_whole_numbers_only_and_not_too_many(n):
    ticks = counted(n)
    step = ticks["dtick"]
    shown = list(range(ticks["tick0"], n + 1, step))
    assert shown and all(isinstance(t, int) for t in shown)
    assert len(shown) <= 8 and str(step)[0] in "125"
    previous = step * 2 // 5 if str(step)[0] == "5" else step // 2  # the next finer step
    assert step == 1 or n / previous > 8  # which would have ticked too often
