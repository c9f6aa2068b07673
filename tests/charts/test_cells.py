"""One map as a clickable picture (attnviz.charts.cells): the PNG is the values coloured,
labels and positions are the tokens', the colour bar's ticks sit where their values are."""

import numpy as np
import pytest

from attnviz.charts import cells
from attnviz.charts.raster import colour

from ..app.helpers import png_of


def test_the_picture_is_the_values_coloured_with_the_tokens_around_it():
    z = np.random.default_rng(0).random((3, 5)).astype(np.float32)
    p = cells.cell_map(z, list("abcde"), ["<b>", "y", "z"], zmin=0.0, zmax=None)
    assert (p["rows"], p["cols"]) == (3, 5)
    np.testing.assert_array_equal(png_of(p["src"]), colour(z, 0.0, float(z.max())))
    np.testing.assert_allclose(np.reshape(p["z"], (3, 5)), z, atol=1e-6)  # the tooltip's
    assert p["colNames"] == ["1:a", "2:b", "3:c", "4:d", "5:e"]
    assert p["rowNames"][0] == "1:<b>"  # drawn as text by the component, never as markup
    assert p["rowLabels"] == p["rowNames"] and p["selected"] is None


def test_positions_number_the_tokens_and_a_pick_is_found_by_position():
    z = np.eye(3, dtype=np.float32)
    keep = [1, 2, 4]  # [CLS] (0) and [SEP] (3) left out
    p = cells.cell_map(
        z, list("abc"), list("abc"), x_positions=keep, y_positions=keep, picked=(4, 2)
    )
    assert p["colPositions"] == keep and p["colNames"] == ["2:a", "3:b", "5:c"]
    assert p["selected"] == [2, 1]  # row of position 4, column of position 2
    assert cells.cell_map(z, list("abc"), list("abc"), picked=(4, 2))["selected"] is None


def test_long_sentences_number_every_tenth_position_and_larger_maps_are_refused():
    n = 50
    p = cells.cell_map(np.zeros((n, n)), ["t"] * n, ["t"] * n)
    assert p["colLabels"][9] == "10" and p["colLabels"][8] == "" and len(p["colNames"]) == n
    big = cells.CLICK_MAX_N + 1
    with pytest.raises(ValueError, match=str(cells.CLICK_MAX_N)):
        cells.cell_map(np.zeros((big, big)), ["t"] * big, ["t"] * big)


def test_bar_ticks_sit_at_their_values_and_a_mark_takes_its_place():
    ticks = cells.bar_ticks(0.0, 0.5, {0.125: "1/N"})
    assert [0.25, "1/N"] in ticks  # 0.125 is a quarter of the way up
    assert [0.0, "0"] in ticks and [1.0, "0.5"] in ticks
    assert not any(text == "0.125" for _, text in ticks)  # the plain tick there gave way
    fractions = [f for f, _ in ticks]
    assert fractions == sorted(fractions)
    assert cells.bar_ticks(0.2, 0.2, None) == [[0.5, "0.2"]]  # a constant map: one tick
