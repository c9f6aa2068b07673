"""Block anatomy page: both languages, every order; figures match the engine's trace."""

import numpy as np
import pytest

from attnviz.lessons import layernorm

from .helpers import assert_clean, decode, figures, run_page, sweep_controls


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("norm", ["post", "pre", "none"])
def test_renders_and_norms_match_engine(lang, norm):
    at = run_page("block_anatomy", lang=lang, norm=norm)
    assert_clean(at)
    ref = layernorm.run(at.text_input(key="text").value, norm, 64, 4, 256, 0)
    lines = [tr for tr in figures(at)[1]["data"] if tr["type"] == "scatter"]
    got = np.stack([decode(tr["y"]) for tr in lines], axis=1)
    np.testing.assert_allclose(got, ref.norms, rtol=1e-5)
    assert len(at.get("plotly_chart")) == (2 if norm == "none" else 3)


def test_ln_token_bars_have_mean_zero_variance_one():
    at = run_page("block_anatomy", norm="pre", token="2")
    assert_clean(at)
    bars = [decode(tr["y"]) for tr in figures(at)[2]["data"] if tr["type"] == "bar"]
    assert bars[1].mean() == pytest.approx(0, abs=1e-5)
    assert bars[1].var() == pytest.approx(1, abs=1e-3)


@pytest.mark.parametrize(
    "params",
    [
        {"D": "8", "H": "8", "ff": "1"},
        {"D": "512", "H": "1"},
        {"text": "", "seed": "2147483647"},
        {"H": "999", "D": "x"},
    ],
)
def test_extremes(params):
    assert_clean(run_page("block_anatomy", **params))


def test_every_control_at_its_extremes():
    at = run_page("block_anatomy")
    assert sweep_controls(at) > 5
