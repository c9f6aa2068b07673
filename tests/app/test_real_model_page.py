"""The real-model page: its maps are the model's own weights, in both languages; a picked
weight's steps end on the map's cell; the query–key pictures and the sink grid are the
probe's and the run's (their laws are tests/lessons/real_model's)."""

import base64
import io
import json
import re

import numpy as np
import pytest
from PIL import Image

import attnviz
from attnviz import formulas
from attnviz.charts.raster import colour
from attnviz.i18n import plain, t
from attnviz.lessons import real_model as rm
from attnviz.lessons.real_model import forward
from attnviz.lessons.real_model import probe as rp

from .helpers import (
    assert_clean,
    assert_step_charts,
    captions,
    chain,
    component,
    decode,
    figures,
    headings,
    latex,
    map_z,
    run_page,
    sweep_controls,
)

TEXT = "The quick brown fox jumps over the lazy dog."


@pytest.fixture(scope="module")
def encoded():
    return attnviz.load_pretrained().encode(TEXT)


def sink_grid(at) -> list[np.ndarray]:
    *_, fig, layers = figures(at)  # the grids, then the per-layer shares' bars
    assert all(t["type"] == "heatmap" for t in fig["data"])
    assert all(t["type"] == "bar" for t in layers["data"])
    return [decode(t["z"]) for t in fig["data"]]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_model_view_shows_all_heads_and_the_picked_one(lang, encoded):
    at = run_page("real_model", lang=lang, text=TEXT, layer=5, head=8)  # from 1, as shown
    assert_clean(at)
    grid = component(at, "attnviz.mosaic")
    assert len(grid["names"]) == 72 and grid["selected"] == [4, 7]  # one button per head
    assert grid["names"][4 * 12 + 7] == (
        "Layer 5, head 8" if lang == "en" else "層\u00a05・ヘッド\u00a08"
    )
    assert grid["rowLabels"][0] == ("L1" if lang == "en" else "層1")
    png = np.asarray(Image.open(io.BytesIO(base64.b64decode(grid["src"].split(",", 1)[1]))))
    n, gap = grid["cell"], grid["gap"]
    step = n + gap
    assert n == len(encoded.tokens) and png.shape == (6 * step - gap, 12 * step - gap, 3)
    cell = png[4 * step : 4 * step + n, 7 * step : 7 * step + n]
    np.testing.assert_array_equal(cell, colour(encoded.attentions[4, 7], 0.0, 1.0))
    np.testing.assert_allclose(map_z(at), encoded.attentions[4, 7], atol=1e-6)
    # how to use the map: under it, drawn by the map (no caption of its own)
    assert component(at, "attnviz.heatmap")["notes"] == [t("real_model.map_help", lang)]
    # the mosaic and the map save their own PNGs; CSV: the map, all layers × heads (N ≤ 64)
    # and the sink grid
    label = t("app.download_png", lang, name=t("real_model.dl_grid", lang))
    name = plain(t("real_model.dl_grid", lang))  # named as its button, in its language
    assert grid["save"] == {"label": label, "file": f"{name}.png"}
    # the map's, every head's, the sinks', and the LayerNorm section's γ and β
    assert len(at.get("download_button")) == 4
    assert headings(at, 1)[0] != ""


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_head_view_combines_heads_and_hides_special_tokens(lang, encoded):
    at = run_page(
        "real_model",
        lang=lang,
        text=TEXT,
        show="head",
        layer=2,
        all_heads="true",
        combine="max",
        hide_special="true",
    )
    assert_clean(at)
    keep = [i for i, tok in enumerate(encoded.tokens) if tok not in ("[CLS]", "[SEP]")]
    kept = encoded.attentions[1][:, keep][:, :, keep].astype(np.float64)
    want = (kept / kept.sum(-1, keepdims=True)).max(0)  # each head renormalised, then the max
    np.testing.assert_allclose(map_z(at), want, atol=1e-6)
    heat = component(at, "attnviz.heatmap")
    assert heat["colPositions"] == keep  # tokens keep their place in the text
    assert not heat["pickable"] and heat["selected"] is None  # no one weight behind a cell
    hover = "Hover over a cell" if lang == "en" else "カーソルを合わせる"
    assert heat["notes"] == [t("real_model.map_help_combined", lang)]  # drawn by the map
    assert hover in heat["notes"][0]
    assert heat["colNames"][0] == f"2:{encoded.tokens[1]}"  # from 1
    assert any(("rescaled" if lang == "en" else "割り直") in c for c in captions(at))
    lines = figures(at)[0]
    n_lines = sum(
        int(np.isnan(decode(t["x"]).astype(float)).sum())
        for t in lines["data"]
        if t["mode"] == "lines"
    )
    assert n_lines == int((want >= 0.02).sum())
    # the query–key picture stays one head's, the slider's: its toggle names that head
    assert at.toggle(key="qkview").label == t("steps.show_qk", lang, h=1)
    assert ("head 1's" if lang == "en" else "ヘッド\u00a01") in at.toggle(key="qkview").label


def test_rollout_view_matches_the_law(encoded):
    at = run_page("real_model", text=TEXT, show="rollout", layer=6)
    assert_clean(at)
    z = map_z(at)
    np.testing.assert_allclose(z, forward.rollout(encoded.attentions)[5], atol=1e-6)
    assert at.slider(key="head").disabled  # rollout averages the heads: no head to follow
    assert at.slider(key="i").disabled and at.slider(key="j").disabled
    assert at.toggle(key="qkview").disabled
    assert not run_page("real_model", text=TEXT, show="head").slider(key="head").disabled


def test_long_text_is_truncated_visibly():
    at = run_page("real_model", text="a " * 990)
    assert_clean(at)
    assert any("512" in w.value for w in at.warning)
    assert map_z(at).shape == (512, 512)


def test_blank_text_shows_an_error_not_a_traceback():
    at = run_page("real_model", text="   ")
    assert_clean(at)
    assert len(at.error) == 1


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize(
    ("params", "fields"),
    [
        (dict(show="model", layer=4, head=6), dict(view="model", layer=3, head=5)),
        (
            dict(show="head", layer=2, all_heads="true", combine="max"),
            dict(view="head", layer=1, combine="max"),
        ),
        (
            dict(show="rollout", layer=5, hide_special="true"),
            dict(view="rollout", layer=4, hide_special=True),
        ),
    ],
)
def test_formulas_shown_are_those_of_the_config_run(lang, params, fields):
    at = run_page("real_model", lang=lang, text=TEXT, follow="true", **params)
    assert_clean(at)
    shown = [chain(line) for line in latex(at)]  # the steps' chains set one step a line
    r = rm.run(rm.Config(text=TEXT, **fields))
    assert shown[: len(r.formulas)] == list(r.formulas)  # the map's, then the steps', QK's, sinks'
    assert shown[-len(r.sinks.formulas) :] == list(r.sinks.formulas)
    head = [formulas.ROLLOUT if fields["view"] == "rollout" else formulas.REAL_HEAD]
    combined = [formulas.heads_combined(fields["combine"])] if "combine" in fields else []
    hidden = [formulas.HIDE_RENORMALISE] if fields.get("hide_special") else []
    assert r.formulas == head + combined + hidden  # the map is a max: its formula says so
    text = " ".join(r.formulas)
    assert ("b}^K_h" in text) == (fields["view"] != "rollout")  # the model's key bias
    assert "ReLU" not in " ".join(shown) and "max(0" not in " ".join(shown)
    steps = any(line.startswith("s_{") for line in shown)
    assert steps == (fields["view"] == "model")  # one head's weight only when one head is drawn


def test_clicking_another_head_does_not_re_encode():
    text = "A sentence that only this page test reads."
    at = run_page("real_model", text=text, layer=1, head=1)
    assert_clean(at)
    encodes, mosaics = forward._encode.cache_info().misses, rm._model_mosaic.cache_info().misses
    for layer, head in ((5, 8), (6, 12)):
        at.slider(key="layer").set_value(layer)
        at.slider(key="head").set_value(head)
        at.run()
        assert_clean(at)
        grid = component(at, "attnviz.mosaic")
        assert grid["selected"] == [layer - 1, head - 1]
    at.radio(key="show").set_value("head").run()
    assert_clean(at)
    assert forward._encode.cache_info().misses == encodes
    assert rm._model_mosaic.cache_info().misses == mosaics


def test_every_control_of_the_head_view_runs_clean():
    at = run_page("real_model", text=TEXT, show="head", all_heads="true")
    assert_clean(at)
    assert sweep_controls(at, skip=("lang", "show")) > 10  # the views have their own tests


def last_number(line: str) -> float:
    text = line.rsplit("=", 1)[1].strip()
    m = re.fullmatch(r"(-?[\d.]+)(?: \\times 10\^\{(-?\d+)\})?", text)
    return float(m[1]) * 10 ** int(m[2] or 0)


@pytest.mark.parametrize("hide", ["false", "true"])
def test_picked_weight_ends_on_the_maps_cell(encoded, hide):
    at = run_page("real_model", text=TEXT, layer=3, head=6, hide_special=hide, follow="true")
    assert_clean(at)
    keep = [
        i for i, t in enumerate(encoded.tokens) if hide == "false" or t not in ("[CLS]", "[SEP]")
    ]
    for i, j in ((5, 3), (2, 9), (11, 2)):
        at.slider(key="i").set_value(i)
        at.slider(key="j").set_value(j)
        at.run()
        assert_clean(at)
        z = map_z(at)
        cell = float(z[keep.index(i - 1), keep.index(j - 1)])
        lines = [chain(line) for line in latex(at)]  # the score and softmax set one step a line
        at_score = next(n for n, line in enumerate(lines) if line.startswith(f"s_{{{i},{j}}}"))
        weight = lines[at_score + 1]
        assert last_number(weight) == pytest.approx(
            float(encoded.attentions[2, 5, i - 1, j - 1]), rel=6e-3
        )
        shown = (
            lines[at_score + 2] if hide == "true" else weight
        )  # ã_ij: the map's renormalised cell
        assert last_number(shown) == pytest.approx(cell, rel=6e-3)
        assert r"\mathbf{b}_{6}^Q" in lines[at_score - 1]  # the model's biases, head 6
        # the caption names the line whose last number is the cell
        key = "real_model.cell_renormalised" if hide == "true" else "steps.cell_weights"
        said = t(key, "en", i=i, j=j, value=cell)
        assert said.split(":")[0] in [c.split(":")[0] for c in captions(at)]
        # the charts under the cell draw the probe's steps of that weight (layer 3, head 6)
        assert_step_charts(at, rp.follow(rp.Pick(TEXT, 2, 5, i - 1, j - 1, hide == "true")).steps)


QUERY, KEY = t("steps.qk_query", "en"), t("steps.qk_key", "en")  # the legend names


def test_query_key_pictures_are_the_probes_projection(encoded):
    pool = "The cat sat on the mat."
    at = run_page("real_model", text=TEXT, layer=5, head=4, i=3, pool=pool, qkview="true")
    assert_clean(at)
    pictures = [f for f in figures(at) if any(t.get("name") == QUERY for t in f["data"])]
    assert len(pictures) == 2  # this sentence alone, and pooled with one more
    # layer 5, head 4, query 3: that the points are the head's own q and k, projected, is
    # tests/lessons/real_model/test_probe.py::test_query_key_space_decodes_to_the_heads_own_q_and_k
    space = rp.qk(rp.Probe(TEXT, layer=4, head=3, query=2)).space
    traces = {t["name"]: t for t in pictures[0]["data"] if t.get("name")}
    for name, want in ((QUERY, space.queries), (KEY, space.keys)):
        points = np.stack([decode(traces[name]["x"]), decode(traces[name]["y"])], 1)
        np.testing.assert_allclose(points, want, atol=1e-5)
    pooled = {t["name"]: t for t in pictures[1]["data"] if t.get("name")}
    n = len(encoded.tokens) + len(forward.encode("The cat sat on the mat.")[0].tokens)
    assert len(decode(pooled[KEY]["x"])) == n and "sentence 2" in pooled


def test_too_many_pooled_lines_say_so_and_keep_the_page():
    pool = "\n".join(["a b."] * (rp.MAX_POOLED_LINES + 1))
    at = run_page("real_model", text=TEXT, pool=pool, qkview="true")
    assert_clean(at)
    assert len(at.error) == 1 and str(rp.MAX_POOLED_LINES) in at.error[0].value
    assert len(sink_grid(at)) == 4  # the rest of the page is drawn


@pytest.mark.parametrize("hide", ["false", "true"])
def test_sink_grid_draws_the_runs_shares(encoded, hide):
    """The panels are the run's shares of the categories shown (that they add up to 1 is
    tests/lessons/real_model/test_sinks.py's)."""
    at = run_page("real_model", text=TEXT, hide_special=hide)
    assert_clean(at)
    panels = sink_grid(at)
    assert len(panels) == (4 if hide == "false" else 2)  # [CLS] and [SEP] hidden: two left
    view = rm.run(rm.Config(text=TEXT, hide_special=hide == "true")).sinks
    np.testing.assert_allclose(panels, view.shares[-len(panels) :], atol=1e-6)  # hidden: 1st, 2nd
    if hide == "false":
        np.testing.assert_allclose(panels[0], encoded.attentions[..., 0].mean(-1), atol=1e-6)
        sentence = next(m.value for m in at.markdown if "[CLS]" in m.value and "%" in m.value)
        assert f"{view.weight:.0%}" in sentence and f"{view.carried:.0%}" in sentence


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_japanese_input_shows_its_wordpiece_tokens(lang):
    at = run_page("real_model", lang=lang, text="猫がマットの上に座った。")
    assert_clean(at)
    assert len(at.warning) == 1 and (
        "Japanese" in at.warning[0].value or "日本語" in at.warning[0].value
    )
    tokens = rm.run(rm.Config(text="猫がマットの上に座った。")).tokens
    code = next(c.value for c in at.code if "[UNK]" in c.value)  # not the share link
    assert all(f":{t}" in code for t in tokens)
    english = run_page("real_model", lang=lang, text=TEXT)
    assert not english.warning and any("WordPiece" in c.value for c in english.caption)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_text_the_vocabulary_lacks_says_how_many_tokens_are_unknown(lang):
    """Emoji alone became one [UNK] with no word of it (issue 52): the page counts the
    unknown tokens, from the tokenizer's own encoding, and opens the token list."""
    text = "😀🎉👍 🐱"
    tokens = rm.run(rm.Config(text=text)).tokens
    n = tokens.count("[UNK]")
    assert n >= 1
    at = run_page("real_model", lang=lang, text=text)
    assert_clean(at)
    said = t("real_model.unknown", lang, n=n, N=len(tokens))
    assert [w.value for w in at.warning] == [said]
    assert not run_page("real_model", lang=lang, text=TEXT).warning  # a text it knows: none


def test_no_cell_is_outlined_before_one_is_picked():
    """The map outlined [CLS]→[CLS] in red on opening, before anything was picked; it
    outlines (i, j) only while the steps (or the query–key picture) use it."""
    at = run_page("real_model", text=TEXT)
    assert_clean(at)
    assert component(at, "attnviz.heatmap")["selected"] is None
    at = run_page("real_model", text=TEXT, i=3, j=2, follow="true")
    assert component(at, "attnviz.heatmap")["selected"] == [2, 1]
    at = run_page("real_model", text=TEXT, i=3, j=2, qkview="true")
    assert component(at, "attnviz.heatmap")["selected"] == [2, 1]


def test_the_pictures_save_under_names_in_the_readers_language():
    """The lines view saved as lines_L3.png and the query–key picture as space.png, beside
    Japanese CSV names: both now as their buttons say, in the reader's language."""
    at = run_page("real_model", lang="ja", text=TEXT, show="head", qkview="true")
    assert_clean(at)
    saved = [
        json.loads(el.proto.config)["toImageButtonOptions"]["filename"]
        for el in at.get("plotly_chart")
    ]
    assert "線による表示：各トークンが読むトークン (層 3・ヘッド 1)" in saved
    assert plain(t("steps.dl_qk", "ja")) in saved
    assert not [name for name in saved if name.isascii() and "_" in name]
