"""The switch between weights a_ij and contributions ‖a_ij f_h(x_j)‖ on the multi-head and
real-model pages: every map, grid and rollout drawn from the engine's norms, the weight
followed showing ‖f_h(x_j)‖ and the product, and the sinks' per-layer shares side by side."""

from __future__ import annotations

import numpy as np
import pytest

import attnviz
from attnviz import worked
from attnviz.charts.raster import colour
from attnviz.formulas import contributions
from attnviz.i18n import t
from attnviz.lessons import multihead, multihead_probe
from attnviz.lessons import real_model as rm
from attnviz.lessons.real_model import forward
from attnviz.lessons.real_model import probe as rp
from attnviz.lessons.real_model.sinks import sink_view

from .helpers import (
    assert_clean,
    assert_step_charts,
    captions,
    chain,
    component,
    latex,
    map_z,
    number_tables,
    png_of,
    run_page,
    series_values,
    step_panels,
)

TEXT = "The quick brown fox jumps over the lazy dog."


@pytest.fixture(scope="module")
def encoded():
    return attnviz.load_pretrained().encode(TEXT)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_real_model_head_of_contributions(lang, encoded):
    at = run_page(
        "real_model", lang=lang, text=TEXT, show="head", layer=2, head=4, measure="contributions"
    )
    assert_clean(at)
    np.testing.assert_allclose(map_z(at), encoded.norms[1, 3], atol=1e-6)
    assert contributions.sent() in [chain(line) for line in latex(at)]
    assert t("real_model.contributions_help", lang) in captions(at)
    assert at.radio(key="measure").value == "contributions"
    at.toggle(key="hide_special").set_value(True).run()  # left out, not rescaled
    assert_clean(at)
    keep = [i for i, tok in enumerate(encoded.tokens) if tok not in ("[CLS]", "[SEP]")]
    np.testing.assert_allclose(map_z(at), encoded.norms[1, 3][np.ix_(keep, keep)], atol=1e-6)
    specials = t("real_model.specials_cls_sep", lang)
    assert t("real_model.hide_note_contributions", lang, specials=specials) in captions(at)
    label = t("real_model.hide_special_contributions", lang, specials=specials)
    assert at.toggle(key="hide_special").label == label


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_real_model_mosaic_and_rollout_of_contributions(lang, encoded):
    at = run_page("real_model", lang=lang, text=TEXT, layer=4, head=2, measure="contributions")
    assert_clean(at)
    grid = component(at, "attnviz.mosaic")
    png = png_of(grid["src"])
    n, step = grid["cell"], grid["cell"] + grid["gap"]
    top = float(np.percentile(encoded.norms, rm.MOSAIC_TOP))
    cell = png[3 * step : 3 * step + n, 1 * step : 1 * step + n]
    np.testing.assert_array_equal(cell, colour(encoded.norms[3, 1], 0.0, top))
    said = t("real_model.grid_contributions", lang, top=top, p=rm.MOSAIC_TOP)
    assert said in captions(at)
    at.radio(key="show").set_value("rollout").run()
    assert_clean(at)
    np.testing.assert_allclose(map_z(at), forward.rollout(encoded.norms)[3], atol=1e-5)
    shown = [p for m in at.markdown for p in m.value.split("\n\n")]  # a run of text is one
    assert t("real_model.rollout_contributions", lang) in shown


def test_real_model_followed_weight_shows_what_is_sent(encoded):
    at = run_page(
        "real_model", text=TEXT, layer=3, head=6, i=5, j=1, follow="true", measure="contributions"
    )
    assert_clean(at)
    steps = rp.follow(rp.Pick(TEXT, 2, 5, 4, 0)).steps
    assert_step_charts(at, steps)
    sent = step_panels(at)["sent"]
    product = series_values(sent["chart"]["panels"][1]["series"][0])
    np.testing.assert_allclose(product, encoded.norms[2, 5, 4], rtol=1e-5, atol=1e-6)
    assert chain(sent["formulas"][0]).endswith(f"= {worked.number(steps.sent)}")
    value = float(encoded.norms[2, 5, 4, 0])
    assert steps.sent == pytest.approx(value, rel=1e-5)
    said = t("steps.cell_contributions", "en", i=5, j=1, value=value)
    assert said in captions(at)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_sinks_per_layer_shares_side_by_side(lang):
    at = run_page("real_model", lang=lang, text=TEXT)
    assert_clean(at)
    view = sink_view(TEXT)
    table = number_tables(at)[-1]
    layers = view.layers()  # (2, 4, L)
    for k in range(3):  # [CLS], [SEP], punctuation: weight, then contribution each
        for m in range(2):
            np.testing.assert_allclose(table.iloc[:, 1 + 2 * k + m], layers[m, k], atol=6e-4)
    c, layer, w, m = view.largest_gap()
    sink = t(f"real_model.sink_{c}", lang)
    said = t("real_model.sinks_layers_reading", lang, sink=sink, l=layer + 1, w=w, m=m)
    assert any(said in x.value for x in at.markdown)
    assert c == "cls" and w > 2 * m  # this sentence: [CLS] takes weight and sends little


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_multihead_contributions(lang):
    on = dict(text="the cat sat on the mat", D=32, H=4, head=3, show="contributions")
    at = run_page("multihead", lang=lang, i=2, j=4, follow="true", **on)
    assert_clean(at)
    cfg = multihead.Config(text="the cat sat on the mat", D=32, H=4)
    r = multihead.run(cfg)
    np.testing.assert_allclose(map_z(at), r.norms[2], atol=1e-6)
    grid = component(at, "attnviz.mosaic")
    hi = float(r.norms.max())
    assert t("multihead.range_contributions", lang, hi=hi) in grid["notes"]
    assert contributions.sent(bias=False, layer=False) in [chain(x) for x in latex(at)]
    steps = multihead_probe.follow(multihead_probe.Pick(cfg, 2, 1, 3)).steps
    assert_step_charts(at, steps)
    value = float(r.norms[2, 1, 3])
    assert t("steps.cell_contributions", lang, i=2, j=4, value=value) in captions(at)
