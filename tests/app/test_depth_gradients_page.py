"""Gradients-by-depth page: both curves, the trend's direction, the formula, extremes."""

import numpy as np
import pytest

from attnviz.lessons import depth_gradients as depth

from .helpers import assert_clean, decode, figures, latex, run_page, sweep_controls


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_renders_with_trend(lang):
    at = run_page("depth_gradients", lang=lang, D="64", seeds="1", L="4")
    assert_clean(at)
    by_layer, trend = figures(at)[:2]
    lines = {tr["name"]: decode(tr["y"]) for tr in by_layer["data"] if tr.get("mode")}
    assert len(lines) == 2 and all(len(v) == 4 for v in lines.values())
    ref = depth.layer_gradients("post", 4, 64, 0)["W_2"]
    assert any(np.allclose(v, ref, rtol=1e-4) for v in lines.values())
    means = [decode(tr["y"]) for tr in trend["data"] if tr.get("mode") == "lines+markers"]
    post, pre = means
    assert pre[-1] < 0.6 * pre[2] and post[-1] > 0.95 * post[2]  # L = 24 vs L = 3
    t = depth.trend(depth.TrendConfig(D=64, seeds=1))
    dashed = next(tr for tr in trend["data"] if tr.get("mode") == "lines")
    np.testing.assert_allclose(decode(dashed["y"]), t.reference[1], rtol=1e-6)
    assert f"×{t.ratios['pre']:.2f}" in " ".join(m.value for m in at.markdown)
    assert latex(at) == t.formulas


def test_matrix_choice_shows_that_matrix():
    at = run_page("depth_gradients", D="64", seeds="1", L="3", param="W_V")
    assert_clean(at)
    lines = [decode(tr["y"]) for tr in figures(at)[0]["data"] if tr.get("mode")]
    ref = depth.layer_gradients("pre", 3, 64, 0)["W_V"]
    assert any(np.allclose(v, ref, rtol=1e-4) for v in lines)


@pytest.mark.parametrize(
    "params",
    [
        {"L": "1", "seeds": "1", "D": "64", "param": "W_V"},
        {"L": "99", "seeds": "0", "D": "65", "param": "bad"},
    ],
)
def test_extremes(params):
    assert_clean(run_page("depth_gradients", **params))


def test_every_control_at_its_extremes():
    at = run_page("depth_gradients", D="64", seeds="1", L="4")
    assert sweep_controls(at) > 5
