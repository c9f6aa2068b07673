"""The shared heat map trace and colour bar, one head's heat map, counted axes, and the
colour table pre-coloured images use."""

import numpy as np
import plotly.colors
import pytest

from attnviz import charts
from attnviz.charts import equivariance, scoring
from attnviz.charts.maps import colour_bar, counted, map_trace
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
    _counts_from_one(equivariance.difference_map(z[:, :8], toks, scale=1.0), n, 8)
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


def test_a_colour_bar_ticks_its_ends_and_the_marks_in_its_range_else_plotlys_own():
    bar = colour_bar(0.0, 0.5, {0.25: "1/N", 0.9: "far"}, len=0.8)
    assert bar == dict(
        tickmode="array", tickvals=[0.0, 0.25, 0.5], ticktext=["0", "1/N", "0.5"], len=0.8
    )
    assert colour_bar(None, 1.0, {0.25: "1/N"}) is None and colour_bar() is None
    assert colour_bar(exponentformat="e") == {"exponentformat": "e"}


def test_a_map_trace_on_a_shared_colour_axis_or_a_subplot():
    z = np.eye(2)
    own = map_trace(z, subplot=3)
    assert (own.zmin, own.zmax, own.xaxis, own.yaxis) == (0.0, 1.0, "x3", "y3")
    assert own.z.dtype == np.float32 and map_trace(z, subplot=1).xaxis == "x"
    shared = map_trace(z, coloraxis="coloraxis")  # the axis holds range and scale
    assert (shared.zmin, shared.zmax, shared.colorscale) == (None, None, None)
