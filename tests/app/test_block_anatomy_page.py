"""Block anatomy page: both languages, every order; figures match the engine's trace."""

import numpy as np
import pytest

from attnviz.lessons.block_anatomy import Config, run

from .helpers import assert_clean, decode, figures, latex, run_page, sweep_controls


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("norm", ["post", "pre", "none"])
def test_renders_and_norms_match_engine(lang, norm):
    at = run_page("block_anatomy", lang=lang, norm=norm)
    assert_clean(at)
    ref = run(Config(at.text_input(key="text").value, norm, D=64, H=4, ff=4, seed=0))
    lines = [tr for tr in figures(at)[1]["data"] if tr["type"] == "scatter"]
    got = np.stack([decode(tr["y"]) for tr in lines], axis=1)
    np.testing.assert_allclose(got, ref.norms, rtol=1e-5)
    assert len(at.get("plotly_chart")) == (2 if norm == "none" else 3)


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("norm", ["post", "pre", "none"])
def test_formulas_shown_are_those_of_the_config_run(lang, norm):
    at = run_page("block_anatomy", lang=lang, norm=norm, text="a b c", D="16", H="2", ff="2")
    assert_clean(at)
    shown = latex(at)
    assert shown == run(Config("a b c", norm, D=16, H=2, ff=2)).formulas
    joined = " ".join(shown)
    assert "\\mathrm{ReLU}" in joined and "GELU" not in joined  # the chapter's FFN
    own = {"post": "Q' &= \\mathrm{LN}(X + A^M(X))", "pre": "A^M(\\mathrm{LN}(X))"}
    for other, part in own.items():
        assert (part in joined) == (other == norm)
    assert ("\\mathrm{LN}" in joined) == (norm != "none")


def test_ln_token_bars_have_mean_zero_variance_one():
    at = run_page("block_anatomy", norm="pre", token="2")
    assert_clean(at)
    bars = [decode(tr["y"]) for tr in figures(at)[2]["data"] if tr["type"] == "bar"]
    assert bars[1].mean() == pytest.approx(0, abs=1e-5)
    assert bars[1].var() == pytest.approx(1, abs=1e-3)


def test_H_offers_only_the_divisors_of_D():
    at = run_page("block_anatomy", D="8", H="16")
    assert_clean(at)
    assert at.select_slider(key="D").value == "8"
    assert at.selectbox(key="H").options == ["1", "2", "4", "8"]
    assert at.selectbox(key="H").value == "4"  # 16 does not divide 8: the default


@pytest.mark.parametrize(
    "params",
    [
        {"D": "8", "H": "8", "ff": "1"},
        {"D": "512", "H": "1"},
        {"text": "", "seed": "2147483647"},
        {"H": "999", "D": "x"},
        {"text": "<b>x</b> a"},
    ],
)
def test_extremes(params):
    assert_clean(run_page("block_anatomy", **params))


def test_every_control_at_its_extremes():
    at = run_page("block_anatomy")
    assert sweep_controls(at) > 5
    for D in ("8", "512"):
        at.select_slider(key="D").set_value(D).run()
        assert_clean(at)
