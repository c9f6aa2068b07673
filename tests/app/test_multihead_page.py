"""The multi-head page: runs in both languages, its maps are the engine's softmax rows."""

import numpy as np
import pytest

from .helpers import assert_clean, decode, figures, run_page


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_renders_and_rows_sum_to_one(lang):
    at = run_page("multihead", lang=lang)
    assert_clean(at)
    grid = figures(at)[0]
    maps = [decode(tr["z"]) for tr in grid["data"] if tr["type"] == "heatmap"]
    assert len(maps) == 8  # default H
    for z in maps:
        np.testing.assert_allclose(z.sum(axis=1), 1.0, atol=1e-5)


def test_hostile_url_values_do_not_break_the_page():
    at = run_page("multihead", H="0", D="abc", seed="-5", text="<script>alert(1)</script>",
                  score="nope")
    assert_clean(at)
    assert at.slider(key="H").value == 1  # clamped to the lower cap
    assert at.selectbox(key="score").value == "scaled_dot"
    assert len(at.warning) >= 3
