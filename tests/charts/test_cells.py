"""One map as a clickable picture (attnviz.charts.cells): the PNG is the values coloured,
labels and positions are the tokens', the colour bar's ticks sit where their values are."""

import numpy as np
import pytest

from attnviz.charts import cells
from attnviz.charts.maps import TICK_LABELS_MAX_N
from attnviz.charts.raster import colour
from attnviz.limits import MAX_N

from ..app.helpers import cell_values as values
from ..app.helpers import png_of


def test_the_picture_is_the_values_coloured_with_the_tokens_around_it():
    z = np.random.default_rng(0).random((3, 5)).astype(np.float32)
    p = cells.cell_map(z, list("abcde"), ["<b>", "y", "z"], zmin=0.0, zmax=None)
    assert (p["rows"], p["cols"]) == (3, 5)
    np.testing.assert_array_equal(png_of(p["src"]), colour(z, 0.0, float(z.max())))
    np.testing.assert_array_equal(values(p), z)  # the tooltip's, float32 exactly
    assert p["colNames"] == ["1:a", "2:b", "3:c", "4:d", "5:e"]
    assert p["rowNames"][0] == "1:<b>"  # drawn as text by the component, never as markup
    assert p["selected"] is None


def test_positions_number_the_tokens_and_a_pick_is_found_by_position():
    z = np.eye(3, dtype=np.float32)
    keep = [1, 2, 4]  # [CLS] (0) and [SEP] (3) left out
    p = cells.cell_map(
        z, list("abc"), list("abc"), x_positions=keep, y_positions=keep, picked=(4, 2)
    )
    assert p["colPositions"] == keep and p["colNames"] == ["2:a", "3:b", "5:c"]
    assert p["selected"] == [2, 1]  # row of position 4, column of position 2
    assert cells.cell_map(z, list("abc"), list("abc"), picked=(4, 2))["selected"] is None


def test_maps_up_to_the_token_cap_are_drawn_and_larger_ones_refused():
    n = MAX_N
    z = np.random.default_rng(1).random((n, n)).astype(np.float32)
    p = cells.cell_map(z, ["t"] * n, ["t"] * n, picked=(n - 1, 0))
    assert len(p["colNames"]) == n and p["selected"] == [n - 1, 0]
    np.testing.assert_array_equal(values(p), z)
    assert p["denseMax"] == TICK_LABELS_MAX_N  # more in view: every tenth position numbered
    big = n + 1
    with pytest.raises(ValueError, match=str(MAX_N)):
        cells.cell_map(np.zeros((big, big)), ["t"] * big, ["t"] * big)


def test_bar_ticks_sit_at_their_values_and_a_mark_takes_its_place():
    ticks = cells.bar_ticks(0.0, 0.5, {0.125: "1/N"})
    assert [0.25, "1/N"] in ticks  # 0.125 is a quarter of the way up
    assert [0.0, "0"] in ticks and [1.0, "0.5"] in ticks
    assert not any(text == "0.125" for _, text in ticks)  # the plain tick there gave way
    fractions = [f for f, _ in ticks]
    assert fractions == sorted(fractions)
    assert cells.bar_ticks(0.2, 0.2, None) == [[0.5, "0.2"]]  # a constant map: one tick
