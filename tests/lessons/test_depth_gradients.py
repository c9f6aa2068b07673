"""Gradient norms by depth at initialisation: the Xiong et al. (2020) trends, at a small size."""

from pathlib import Path

import numpy as np
import pytest

from attnviz import formulas
from attnviz.lessons import depth_gradients as depth

ROOT = Path(__file__).resolve().parents[2]
X_SCALES = ("unit", "sqrt_d")


def means(table, by: str, value: str = "W_2") -> dict:
    stats = depth.spread(table, by, value)
    return {n: part.set_index(by)["mean"] for n, part in stats.groupby("norm")}


@pytest.fixture(scope="module")
def trend():
    return means(depth.last_layer_trend(64, 2), "L")


def test_pre_ln_last_layer_gradient_shrinks_like_one_over_sqrt_L(trend):
    ratio = trend["pre"][24] / trend["pre"][3]
    assert 0.6 * np.sqrt(3 / 24) < ratio < 1.4 * np.sqrt(3 / 24)


def test_post_ln_last_layer_gradient_does_not_shrink(trend):
    assert trend["post"][24] / trend["post"][3] > 0.95
    assert trend["post"][24] > 2 * trend["pre"][24]


def test_per_layer_shapes_depend_on_the_input_scale():
    """Unit inputs: pre-LN's gradient falls from layer 1 to L (the Jacobians of the blocks
    above add up); inputs √D larger: every layer gets the same (Xiong et al., Fig. 3)."""
    unit = depth.run(depth.Config(L=8, D=64, seeds=2, x_scale="unit"))
    big = depth.run(depth.Config(L=8, D=64, seeds=2, x_scale="sqrt_d"))
    assert unit.last_over_first["W_2"]["pre"] < 0.6
    assert 0.85 < big.last_over_first["W_2"]["pre"] < 1.15
    pre = means(unit.table, "layer")["pre"]
    assert unit.last_over_first["W_2"]["pre"] == pytest.approx(pre[8] / pre[1])


def test_per_layer_run_tables_and_progress():
    seen = []
    r = depth.run(depth.Config(L=3, D=16, seeds=2), seen.append)
    assert sorted(r.table.columns) == sorted(["norm", "seed", "layer", *depth.PARAMS])
    assert len(r.table) == 2 * 2 * 3 and (r.table[list(depth.PARAMS)] > 0).all().all()
    assert seen == pytest.approx([0.5, 1.0])
    for p in depth.PARAMS:
        s = r.spread[p]
        assert list(s.columns) == ["norm", "layer", "mean", "std"] and len(s) == 2 * 3
        first = r.table[(r.table.norm == "pre") & (r.table.layer == 1)][p]
        got = s[(s.norm == "pre") & (s.layer == 1)]
        assert got["mean"].item() == pytest.approx(first.mean())
        assert got["std"].item() == pytest.approx(first.std())


def test_trend_reference_is_one_over_sqrt_L_through_pre_ln_and_ratios_follow_the_means():
    seen = []
    t = depth.trend(depth.TrendConfig(D=16, seeds=1), seen.append)
    assert seen[-1] == 1.0 and seen == sorted(seen)
    pre = t.spread[t.spread.norm == "pre"].set_index("L")["mean"]
    post = t.spread[t.spread.norm == "post"].set_index("L")["mean"]
    Ls, ref = t.reference
    np.testing.assert_array_equal(Ls, depth.TREND_DEPTHS)
    np.testing.assert_allclose(ref, pre[1] / np.sqrt(Ls))
    lo, hi = depth.RATIO_DEPTHS
    assert t.ratios["pre"] == pytest.approx(pre[hi] / pre[lo])
    assert t.ratios["post"] == pytest.approx(post[hi] / post[lo])
    assert t.ratios["ref"] == pytest.approx(np.sqrt(lo / hi))
    assert t.formulas == [formulas.grad_scale("unit")]
    assert "W_2^{(L)}" in t.formulas[0] and "W_2^{(\\ell)}" not in t.formulas[0]


def test_the_law_shown_is_the_one_the_input_scale_gives():
    """Unit inputs: pre-LN's last-layer gradient is O(1/√L), as the trend shows (×0.40 from
    L = 3 to 24); inputs √D larger: O(1), as it shows then (×0.99): each formula with its run."""
    unit, big = (depth.trend(depth.TrendConfig(D=64, seeds=1, x_scale=x)) for x in X_SCALES)
    assert "sqrt{L}" in unit.formulas[0] and unit.ratios["pre"] < 0.6
    assert "sqrt{L}" not in big.formulas[0] and big.ratios["pre"] > 0.9
    assert all(f.count("O(1)") == (1 if t is unit else 2) for t in (unit, big) for f in t.formulas)


def test_config_checks_caps_seeds_and_its_trend_leaves_L_out():
    cfg = depth.Config(L=4, D=64, seeds=2)
    assert cfg.trend == depth.TrendConfig(D=64, seeds=2) == depth.Config(L=9, D=64, seeds=2).trend
    assert depth.Config(L=24, D=512, seeds=5).seeds_used == 1
    assert depth.Config(L=24, D=128, seeds=5).seeds_used == 5
    for bad in ({"L": 25}, {"D": 4}, {"seeds": 0}, {"seeds": 11}, {"x_scale": "big"}):
        with pytest.raises(ValueError):
            depth.Config(**bad)


def test_the_figures_quoted_are_those_of_the_page_defaults():
    """README.md and this lesson's docstring quote the ratios at the page's defaults
    (D = 128, L = 12, seeds 0–2); computed again here, so the text cannot drift."""
    quoted = {  # (x_scale, what): the figure quoted
        ("unit", "trend post"): 1.27,
        ("unit", "trend pre"): 0.40,
        ("unit", "layer pre"): 0.31,
        ("sqrt_d", "layer pre"): 0.96,
        ("sqrt_d", "trend pre"): 0.99,
    }
    got = {}
    for x_scale in ("unit", "sqrt_d"):
        cfg = depth.Config(x_scale=x_scale)
        ratios = depth.trend(cfg.trend).ratios
        got[x_scale, "trend post"], got[x_scale, "trend pre"] = ratios["post"], ratios["pre"]
        got[x_scale, "layer pre"] = depth.run(cfg).last_over_first["W_2"]["pre"]
    for what, figure in quoted.items():
        assert got[what] == pytest.approx(figure, abs=0.005), what
    doc, readme = depth.__doc__, (ROOT / "README.md").read_text(encoding="utf-8")
    assert "×1.27 from L = 3 to 24" in doc and "(×0.40, √(3/24) = 0.35)" in doc
    assert "(×0.31:" in doc and "(×0.96, their Fig. 3)" in doc and "(×0.99)" in doc
    assert "×0.40 from L = 3 to 24 at D = 128" in readme
