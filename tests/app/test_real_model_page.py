"""The real-model page: its maps are the model's own weights, in both languages."""

import base64
import io
import json

import numpy as np
import pytest
from PIL import Image

import attnviz
from attnviz import formulas
from attnviz.charts.raster import colour
from attnviz.lessons import real_model as rm

from .helpers import assert_clean, decode, figures, latex, run_page, sweep_controls

TEXT = "The quick brown fox jumps over the lazy dog."


@pytest.fixture(scope="module")
def encoded():
    return attnviz.load_pretrained().encode(TEXT)


def heatmap_z(at) -> np.ndarray:
    traces = [t for f in figures(at) for t in f["data"] if t["type"] == "heatmap"]
    assert len(traces) == 1
    return decode(traces[0]["z"])


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_model_view_shows_all_heads_and_the_picked_one(lang, encoded):
    at = run_page("real_model", lang=lang, text=TEXT, layer=4, head=7)
    assert_clean(at)
    grid = json.loads(at.get("bidi_component")[0].proto.json)
    assert len(grid["names"]) == 72 and grid["selected"] == [4, 7]  # one button per head
    assert grid["names"][4 * 12 + 7] == ("Layer 4, head 7" if lang == "en" else "層 4・ヘッド 7")
    png = np.asarray(Image.open(io.BytesIO(base64.b64decode(grid["src"].split(",", 1)[1]))))
    n, gap = grid["cell"], grid["gap"]
    step = n + gap
    assert n == len(encoded.tokens) and png.shape == (6 * step - gap, 12 * step - gap, 3)
    cell = png[4 * step : 4 * step + n, 7 * step : 7 * step + n]
    np.testing.assert_array_equal(cell, colour(encoded.attentions[4, 7], 0.0, 1.0))
    np.testing.assert_allclose(heatmap_z(at), encoded.attentions[4, 7], atol=1e-6)
    # the mosaic as PNG, the map and all layers × heads as CSV (N ≤ 64)
    assert len(at.get("download_button")) == 3
    assert at.title[0].value != ""


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_head_view_combines_heads_and_hides_special_tokens(lang, encoded):
    at = run_page(
        "real_model",
        lang=lang,
        text=TEXT,
        show="head",
        layer=1,
        all_heads="true",
        combine="max",
        hide_special="true",
    )
    assert_clean(at)
    keep = [i for i, tok in enumerate(encoded.tokens) if tok not in ("[CLS]", "[SEP]")]
    want = encoded.attentions[1].max(0)[np.ix_(keep, keep)]
    np.testing.assert_allclose(heatmap_z(at), want, atol=1e-6)
    heat = figures(at)[0]
    assert decode(heat["data"][0]["x"]).tolist() == keep  # tokens keep their place in the text
    assert heat["layout"]["xaxis"]["ticktext"][0] == f"1:{encoded.tokens[1]}"
    lines = figures(at)[1]
    n_lines = sum(
        int(np.isnan(decode(t["x"]).astype(float)).sum())
        for t in lines["data"]
        if t["mode"] == "lines"
    )
    assert n_lines == int((want >= 0.02).sum())


def test_rollout_view_matches_the_law(encoded):
    at = run_page("real_model", text=TEXT, show="rollout", layer=5)
    assert_clean(at)
    z = heatmap_z(at)
    np.testing.assert_allclose(z, rm.rollout(encoded.attentions)[5], atol=1e-6)
    np.testing.assert_allclose(z.sum(1), 1.0, atol=1e-5)


def test_long_text_is_truncated_visibly():
    at = run_page("real_model", text="a " * 990)
    assert_clean(at)
    assert any("512" in w.value for w in at.warning)
    assert heatmap_z(at).shape == (512, 512)


def test_blank_text_shows_an_error_not_a_traceback():
    at = run_page("real_model", text="   ")
    assert_clean(at)
    assert len(at.error) == 1


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize(
    ("params", "fields"),
    [
        (dict(show="model", layer=3, head=5), dict(view="model", layer=3, head=5)),
        (
            dict(show="head", layer=1, all_heads="true", combine="max"),
            dict(view="head", layer=1, combine="max"),
        ),
        (
            dict(show="rollout", layer=4, hide_special="true"),
            dict(view="rollout", layer=4, hide_special=True),
        ),
    ],
)
def test_formulas_shown_are_those_of_the_config_run(lang, params, fields):
    at = run_page("real_model", lang=lang, text=TEXT, **params)
    assert_clean(at)
    shown = latex(at)
    assert shown == rm.run(rm.Config(text=TEXT, **fields)).formulas
    assert shown == [formulas.ROLLOUT if fields["view"] == "rollout" else formulas.REAL_HEAD]
    text = " ".join(shown)
    assert ("b}^K_h" in text) == (fields["view"] != "rollout")  # the model's key bias
    assert "ReLU" not in text and "max(0" not in text


def test_clicking_another_head_does_not_re_encode():
    text = "A sentence that only this page test reads."
    at = run_page("real_model", text=text, layer=0, head=0)
    assert_clean(at)
    encodes, mosaics = rm.encode.cache_info().misses, rm.model_mosaic.cache_info().misses
    for layer, head in ((4, 7), (5, 11)):
        at.slider(key="layer").set_value(layer)
        at.slider(key="head").set_value(head)
        at.run()
        assert_clean(at)
        grid = json.loads(at.get("bidi_component")[0].proto.json)
        assert grid["selected"] == [layer, head]
    at.radio(key="show").set_value("head").run()
    assert_clean(at)
    assert rm.encode.cache_info().misses == encodes
    assert rm.model_mosaic.cache_info().misses == mosaics


def test_every_control_of_the_head_view_runs_clean():
    at = run_page("real_model", text=TEXT, show="head", all_heads="true")
    assert_clean(at)
    assert sweep_controls(at, skip=("lang", "show")) > 10  # the views have their own tests
