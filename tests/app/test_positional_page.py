"""Positional-encoding page: the sinusoidal heat map is the engine's table; PE separates rows."""

import numpy as np
import pytest

from attnviz.lessons import positions
from attnviz.positional import sinusoidal

from .helpers import assert_clean, decode, figures, run_page, sweep_controls


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_renders_and_matrix_is_sinusoidal(lang):
    at = run_page("positional", lang=lang, N="20", D="16")
    assert_clean(at)
    figs = figures(at)
    np.testing.assert_allclose(decode(figs[0]["data"][0]["z"]), sinusoidal(20, 16), atol=1e-6)
    S = decode(figs[1]["data"][0]["z"])
    np.testing.assert_allclose(S, S.T, atol=1e-5)
    none = [decode(tr["y"]) for tr in figs[2]["data"]]
    sin = [decode(tr["y"]) for tr in figs[3]["data"]]
    np.testing.assert_allclose(none[0], none[1], atol=1e-6)
    assert np.abs(sin[0] - sin[1]).max() > 1e-3


def test_race_encodings_are_offered_once_the_race_has_run():
    at = run_page("positional", kind="race_post")
    assert_clean(at)
    assert at.selectbox(key="kind").value == "sinusoidal"  # no race yet


@pytest.mark.parametrize(
    "params",
    [
        {"N": "1", "D": "2", "d_pos": "1"},
        {
            "N": "9999",
            "D": "9999",
            "d_pos": "9999",
            "mode": "concat",
            "kind": "learned",
            "cosine": "true",
        },
        {"text": "one two three"},
        {"text": ""},
    ],
)
def test_extremes(params):
    assert_clean(run_page("positional", **params))
    assert positions.widths(2, 1)["concat"] == 3


def test_every_control_at_its_extremes():
    at = run_page("positional")
    assert sweep_controls(at) > 5
