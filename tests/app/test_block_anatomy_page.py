"""Block anatomy page: both languages, every order; figures match the engine's trace."""

import re

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
    own = {
        "post": "Q' &= \\mathrm{LN}(X + \\mathcal{A}^M(X))",
        "pre": "\\mathcal{A}^M(\\mathrm{LN}(X))",
    }
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


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_flow_and_formula_use_the_same_symbols_and_tokens_count_from_1(lang):
    """Item 1.9: the boxes say Aᴹ, X, Q′ / X′ as formulas.block does; no MHA, no H for the
    FFN's input (H is the number of heads); the LN table's headers are translated."""
    at = run_page("block_anatomy", lang=lang, norm="post", text="a b c", token="3")
    assert_clean(at)
    boxes = [a["text"] for a in figures(at)[0]["layout"]["annotations"] if a.get("text")]
    assert "Aᴹ(X)" in boxes and not [b for b in boxes if "MHA" in b]
    joined = " ".join(latex(at))
    assert (
        "\\mathcal{A}^M(X)" in joined and "\\mathrm{FFN}(Y)" in joined and "FFN}(H)" not in joined
    )
    bars = figures(at)[2]
    assert decode(bars["data"][0]["x"])[0] == 1  # features d = 1 … D
    assert bars["layout"]["annotations"][0]["text"].startswith("3:c")  # token 3 of 3
    headers = list(at.dataframe[0].value.columns)
    assert headers[0] == ("トークン" if lang == "ja" else "token")
    if lang == "ja":
        assert not [h for h in headers if any("a" <= ch <= "z" for ch in h)], headers
    assert at.dataframe[0].value.iloc[0, 0] == "1:a"


@pytest.mark.parametrize("norm", ["post", "pre", "none"])
def test_the_lengths_quoted_under_the_chart_are_the_runs(norm):
    """The note under the lengths chart quotes the mean length going in and coming out of
    the block, as computed (it once said pre-LN's length 'grows freely' beside a chart where
    it went from 7.9 to 8.2)."""
    at = run_page("block_anatomy", lang="en", norm=norm)
    ref = run(Config(at.text_input(key="text").value, norm, D=64, H=4, ff=4, seed=0))
    note = next(c.value for c in at.caption if "√D = 8.0" in c.value)
    first, last = ref.norms[0].mean(), ref.norms[-1].mean()
    assert f"{first:.2f}" in note and f"{last:.2f}" in note
    if norm == "post":
        assert abs(last - 8.0) < 0.05  # LN₂'s output: length √D (γ = 1, β = 0)
    else:
        assert last > first  # nothing brings the sum back: the block lengthened it


@pytest.mark.parametrize(
    ("lang", "title", "colour"),
    [
        ("ja", "1:猫 — LN₁ に入る前の特徴", "黒い実線は平均"),
        ("en", "1:cat — features", "black line"),
    ],
)
def test_ln_panel_title_reads_as_one_phrase_and_the_caption_names_the_lines_colour(
    lang, title, colour
):
    """「1:猫: LN₁ に入る特徴」 had two colons; the caption said the mean was a red line
    while the right panel's bars were red too."""
    text = "猫がマットに座った" if lang == "ja" else "cat sat on the mat"
    at = run_page("block_anatomy", lang=lang, text=text)
    assert_clean(at)
    fig = figures(at)[2]
    panel = fig["layout"]["annotations"][0]["text"]
    assert panel.startswith(title) and panel.count(":") == 1
    captions = " ".join(c.value for c in at.caption)
    assert colour in captions and not re.search(r"赤|\bred\b", captions)
    assert {s["line"]["color"] for s in fig["layout"]["shapes"]} == {"#222"}
