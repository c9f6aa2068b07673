"""Block anatomy page: both languages, every order; its flow, lengths, formulas, note, LN
bars and table are the lesson's run for the page's config, read back from the page (what LN
does to a token, and the block's lengths, are tests/lessons/test_block_anatomy.py's)."""

import re

import numpy as np
import pytest

from attnviz.errors import InputError
from attnviz.i18n import t
from attnviz.lessons.block_anatomy import Config, heads, run

from .helpers import (
    assert_clean,
    decode,
    figures,
    latex,
    number_tables,
    run_page,
    sweep_controls,
)


def shown(at) -> Config:
    """The lesson's config as the page's widgets now hold it."""
    return Config(
        at.text_input(key="text").value,
        at.radio(key="norm").value,
        D=int(at.select_slider(key="D").value),
        H=int(at.selectbox(key="H").value),
        ff=int(at.radio(key="ff").value),
        seed=int(at.number_input(key="seed").value),
    )


def assert_draws(at, cfg: Config, lang: str = "en") -> None:
    """The page draws ``run(cfg)``: the flow's boxes and shapes, every token's length after
    every step, the formulas, the lengths quoted under the chart and, with an LN, the picked
    token's components before and after it and the table of every token's statistics (or the
    engine's message where it refuses the text, and nothing drawn)."""
    figs = figures(at)
    try:
        r = run(cfg)
    except InputError as err:
        detail = t(f"errors.{err.key}", lang, **err.fields)
        assert [e.value for e in at.error] == [t("app.invalid", lang, detail=detail)]
        assert not figs and not at.latex
        return
    texts = [a["text"] for a in figs[0]["layout"]["annotations"] if not a.get("showarrow")]
    assert (texts[::2], texts[1::2]) == (r.steps, r.shapes)
    lines = [tr for tr in figs[1]["data"] if tr["type"] == "scatter"]
    assert [tr["x"] for tr in lines] == [r.steps] * len(r.tokens)
    np.testing.assert_array_equal(np.stack([decode(tr["y"]) for tr in lines], axis=1), r.norms)
    assert latex(at) == r.formulas
    first, last = r.norms[0].mean(), r.norms[-1].mean()  # the block's input, its output
    # the note quotes the run's lengths (it once said pre-LN's length 'grows freely' beside
    # a chart where it went from 7.9 to 8.2)
    note = t(f"block_anatomy.norms_{cfg.norm}", lang, sqrtD=cfg.D**0.5, first=first, last=last)
    assert note in [c.value for c in at.caption]
    if r.ln_hat is None:
        assert len(figs) == 2 and [i.value for i in at.info] == [t("block_anatomy.no_ln", lang)]
        assert not number_tables(at)
        return
    i = at.slider(key="token").value  # x_i, from 1
    bars = [decode(tr["y"]) for tr in figs[2]["data"] if tr["type"] == "bar"]
    np.testing.assert_array_equal(np.stack(bars), np.stack([r.ln_in[i - 1], r.ln_hat[i - 1]]))
    [table] = number_tables(at)
    assert list(table.columns) == [t(f"block_anatomy.col_{c}", lang) for c in r.stats.columns]
    assert table.iloc[:, 0].tolist() == r.stats["token"].tolist()
    # to 4 places, the scale said: a mean of 1e-8 after LN shows as the 0 it stands for
    shown = table.iloc[:, 1:].to_numpy(dtype=float)
    np.testing.assert_allclose(shown, r.stats.iloc[:, 1:].to_numpy(), atol=0.5e-4 + 1e-12)
    assert t("block_anatomy.ln_scale", lang, d=4, tiny="0.00005") in [c.value for c in at.caption]


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("norm", ["post", "pre", "none"])
def test_renders_the_run_of_each_order(lang, norm):
    at = run_page("block_anatomy", lang=lang, norm=norm)
    assert_clean(at)
    cfg = shown(at)
    assert cfg == Config(at.text_input(key="text").value, norm, D=64, H=4, ff=4, seed=0)
    assert_draws(at, cfg, lang)
    assert len(at.get("plotly_chart")) == (2 if norm == "none" else 3)


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("norm", ["post", "pre", "none"])
def test_formulas_shown_are_those_of_the_config_run(lang, norm):
    """Which block each order writes (ReLU, where LN sits) is the lesson's; the page shows
    the run's."""
    at = run_page("block_anatomy", lang=lang, norm=norm, text="a b c", D="16", H="2", ff="2")
    assert_clean(at)
    cfg = shown(at)
    assert cfg == Config("a b c", norm, D=16, H=2, ff=2)
    assert_draws(at, cfg, lang)


def test_the_ln_bars_are_the_picked_tokens():
    """Token x_i picked from the URL, then on the slider: its components before LN₁ and after
    it are the run's row i (that they have mean 0 and variance 1 is the lesson's)."""
    at = run_page("block_anatomy", norm="pre", token="2", seed="3")
    assert_clean(at)
    assert at.slider(key="token").value == 2 and shown(at).seed == 3
    assert_draws(at, shown(at))
    at.slider(key="token").set_value(6).run()
    assert_clean(at)
    assert_draws(at, shown(at))


def test_H_offers_only_the_divisors_of_D():
    at = run_page("block_anatomy", D="8", H="16")
    assert_clean(at)
    assert at.select_slider(key="D").value == "8"
    assert at.selectbox(key="H").options == [str(h) for h in heads(8)]
    assert at.selectbox(key="H").value == "4"  # 16 does not divide 8: the default
    assert_draws(at, shown(at))


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
    at = run_page("block_anatomy", **params)
    assert_clean(at)
    assert_draws(at, shown(at))


def test_every_control_at_its_extremes():
    at = run_page("block_anatomy")
    assert sweep_controls(at) > 5
    for D in ("8", "512"):
        at.select_slider(key="D").set_value(D).run()
        assert_clean(at)
        assert int(D) == shown(at).D
        assert_draws(at, shown(at))


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_flow_and_formula_use_the_same_symbols_and_tokens_count_from_1(lang):
    """Item 1.9: the boxes are the run's steps and the formulas its formulas (that they say
    Aᴹ, X, Q′ / X′ alike, with no MHA and no H for the FFN's input, is the lesson's); the
    components count from 1; the LN table's headers are translated."""
    at = run_page("block_anatomy", lang=lang, norm="post", text="a b c", token="3")
    assert_clean(at)
    assert_draws(at, Config("a b c", "post"), lang)
    bars = figures(at)[2]
    assert decode(bars["data"][0]["x"])[0] == 1  # components d = 1 … D
    assert bars["layout"]["annotations"][0]["text"].startswith("3:c")  # token 3 of 3
    headers = list(number_tables(at)[0].columns)
    assert headers[0] == ("トークン" if lang == "ja" else "token")
    if lang == "ja":
        assert not [h for h in headers if any("a" <= ch <= "z" for ch in h)], headers
    assert number_tables(at)[0].iloc[0, 0] == "1:a"


@pytest.mark.parametrize(
    ("lang", "title", "colour"),
    [
        ("ja", "1:猫 — LN₁ に入る前の各成分", "黒い実線は平均"),
        ("en", "1:cat — its components", "black line"),
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


def test_the_ln_statistics_show_zero_where_the_mean_is_zero():
    """The table showed 7.451e-9 where the point of LN is "0"; to 4 places, never −0.0000."""
    at = run_page("block_anatomy", lang="ja", norm="post")
    [table] = number_tables(at)
    mean_after = table[t("block_anatomy.col_mean_after", "ja")]
    assert (mean_after == 0).all()
    body = next(el.proto.body for el in at.get("html") if "attnviz-numbers" in el.proto.body)
    assert "0.0000" in body and "-0.0000" not in body and "e-" not in body
