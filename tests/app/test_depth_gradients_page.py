"""Gradients-by-depth page: both curves, the trend's direction, the formula, extremes."""

import numpy as np
import pytest

from attnviz.i18n import t
from attnviz.lessons import depth_gradients as depth
from attnviz.lessons import depth_model

from .helpers import assert_clean, decode, figures, latex, run_page, sweep_controls


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_renders_with_trend(lang):
    at = run_page("depth_gradients", lang=lang, D="64", seeds="1", L="4")
    assert_clean(at)
    by_layer, trend = figures(at)[:2]
    lines = {tr["name"]: decode(tr["y"]) for tr in by_layer["data"] if tr.get("mode")}
    assert len(lines) == 2 and all(len(v) == 4 for v in lines.values())
    ref = depth_model.layer_gradients(4, 64, 0)["post"]["W_2"]
    assert any(np.allclose(v, ref, rtol=1e-4) for v in lines.values())
    means = [decode(tr["y"]) for tr in trend["data"] if tr.get("mode") == "lines+markers"]
    post, pre = means
    assert pre[-1] < 0.6 * pre[2] and post[-1] > 0.95 * post[2]  # L = 24 vs L = 3
    t = depth.trend(depth.TrendConfig(D=64, seeds=1))
    dashed = next(tr for tr in trend["data"] if tr.get("mode") == "lines")
    np.testing.assert_allclose(decode(dashed["y"]), t.reference[1], rtol=1e-6)
    text = " ".join(m.value for m in at.markdown)
    assert f"{t.ratios['pre']:.2f}" in text and f"{t.ratios['post']:.2f}" in text
    assert latex(at) == t.formulas


def test_matrix_choice_shows_that_matrix():
    at = run_page("depth_gradients", D="64", seeds="1", L="3", param="W_V")
    assert_clean(at)
    lines = [decode(tr["y"]) for tr in figures(at)[0]["data"] if tr.get("mode")]
    ref = depth_model.layer_gradients(3, 64, 0)["pre"]["W_V"]
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


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize(
    ("x_scale", "param"), [("unit", "W_2"), ("sqrt_d", "W_2"), ("unit", "W_V")]
)
def test_per_layer_sentence_reads_the_chart_it_describes(lang, x_scale, param):
    """The sentence under the per-layer chart gives the chart's own layer-L / layer-1 ratios
    of the matrix charted (the old text claimed every pre-LN layer shrinks like 1/√L, which
    the chart contradicts; then it named and gave W₂'s whichever matrix was charted: ×0.91
    with post-LN under a chart of W_V's, which grows ×2.2)."""
    at = run_page("depth_gradients", lang=lang, D="64", seeds="1", L="6", x=x_scale, param=param)
    assert_clean(at)
    r = depth.run(depth.Config(L=6, D=64, seeds=1, x_scale=x_scale)).last_over_first[param]
    lines = [decode(tr["y"]) for tr in figures(at)[0]["data"] if tr.get("mode")]
    post, pre = lines
    assert r["pre"] == pytest.approx(pre[-1] / pre[0], rel=1e-5)
    assert r["post"] == pytest.approx(post[-1] / post[0], rel=1e-5)
    text = " ".join(m.value for m in at.markdown)
    sentence = t("depth_gradients.per_layer", lang, L=6, param=param, **r)
    assert sentence in text and f"\\partial {param}\\|" in sentence
    assert "Xiong" in " ".join(c.value for c in at.caption)
    every_layer = "every layer's gradient shrinks" if lang == "en" else "すべての層の勾配"
    assert every_layer not in text


def test_seeds_capped_at_the_widest_setting_says_so():
    at = run_page("depth_gradients", D="512", seeds="5", L="1")
    assert_clean(at)
    assert any("use 1 of the seeds" in i.value for i in at.info)
