"""The pictures' text alternatives (ui.mosaic): what a screen reader says of a map and of a
grid of maps, in the reader's language, from the data."""

import numpy as np
import pytest

from attnviz.charts import Mosaic
from attnviz.charts.cells import cell_map
from attnviz.i18n import plain
from ui import language, mosaic


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_map_is_described_by_its_largest_finite_value_and_where_it_is(monkeypatch, lang):
    """A causal map of scores: the masked cells (−∞, NaN) are never "the largest"; the
    largest of the rest is named with its value and its row's and column's tokens."""
    monkeypatch.setattr(language.st, "session_state", {"lang": lang})
    z = np.array([[0.1, -np.inf, np.nan], [0.3, 0.2, -np.inf], [0.25, 0.7, 0.05]], np.float32)
    tokens = ["猫", "が", "座る"]
    shown = np.nan_to_num(z, nan=0.0, neginf=0.0)  # the picture: its labels are what counts
    payload = cell_map(shown, tokens, tokens, title="head <sub>3</sub>", zmin=0, zmax=1)
    alt = plain(mosaic.map_alt(z, payload))  # numbers and words joined by no-break spaces
    if lang == "en":
        assert alt == (
            "head 3: a map of 3 × 3 cells; its largest value, 0.7, is at row 3:座る, column 2:が"
        )
    else:
        assert alt == "head 3：3 × 3 マスのマップ。最大値 0.7 は 3:座る の行、2:が の列"


def test_a_grid_of_maps_says_how_many_and_which_is_picked(monkeypatch):
    monkeypatch.setattr(language.st, "session_state", {"lang": "en"})
    tiles = Mosaic(rgb=np.zeros((9, 14, 3), np.uint8), rows=2, cols=3, cell=4, gap=1)
    names = [f"head {k + 1}" for k in range(5)]  # the last row one short
    data = mosaic.data(
        tiles, b"", row_labels=[], col_labels=[], names=names, selected=(1, 1), alt="All heads"
    )
    assert data["alt"] == "All heads: 5 maps, 2 rows × 3 columns; picked: head 5"
    data = mosaic.data(
        tiles, b"", row_labels=[], col_labels=[], names=names, selected=None, alt="All heads"
    )
    assert data["alt"] == "All heads: 5 maps, 2 rows × 3 columns"
