"""The √D page: renders in both languages; its figures and metrics are the lesson's result,
read back from the JSON."""

import re

import numpy as np
import pytest

from attnviz.i18n import t
from attnviz.lessons import saturation

from .helpers import assert_clean, decode, figures, latex, metrics, run_page


def traces(at, index):
    return figures(at)[index]["data"]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_curves_are_the_runs_table_and_its_fitted_slopes(lang):
    """The variance and softmax curves draw the lesson's table (Var(qᵀk) = D and the
    saturation it brings are tests/lessons/test_saturation.py's to check)."""
    at = run_page("saturation", lang=lang, N=8, rows=2000)
    assert_clean(at)
    r = saturation.run(saturation.Config(N=8, rows=2000))
    table = {scaled: r.curves[r.curves["scaled"] == scaled] for scaled in (False, True)}
    raw, scaled, _identity = traces(at, 2)
    for trace, part in ((raw, table[False]), (scaled, table[True])):
        np.testing.assert_array_equal(decode(trace["x"]), part["D"])
        np.testing.assert_allclose(decode(trace["y"]), part["variance"], rtol=1e-6)
    slope = "傾き" if lang == "ja" else "slope"  # the legend in the reader's language
    assert f"{slope} {r.slope[False]:.3f}" in raw["name"]
    assert f"{slope} {r.slope[True]:.3f}" in scaled["name"]
    curves = traces(at, 3)  # a panel per statistic, unscaled then scaled
    for k, col in enumerate(("max_weight", "entropy", "jacobian", "saturated")):
        for trace, part in zip(curves[2 * k : 2 * k + 2], table.values(), strict=True):
            np.testing.assert_allclose(decode(trace["y"]), part[col], rtol=1e-6)


def test_moving_D_changes_the_chosen_row_and_metrics():
    at = run_page("saturation", D="1")
    assert_clean(at)
    run = saturation.run(saturation.Config())  # the page's defaults
    row_small = [decode(t["y"]) for t in traces(at, 1)]
    np.testing.assert_allclose(row_small, run.at(1).example, atol=1e-6)
    at.select_slider(key="D").set_value("4096").run()
    assert_clean(at)
    raw_w, scaled_w = (decode(t["y"]) for t in traces(at, 1))
    variance = run.at(4096).stats.loc[False, "variance"]
    shown = metrics(at)
    assert variance > 3000 and shown[0].value == f"{variance:,.0f}"  # 4,170, not 4.17e+03
    label = shown[3].label  # the share of saturated rows says where saturation starts
    assert label == t("saturation.m_saturated", "en", t=saturation.SATURATED) and "0.99" in label
    stats = run.at(4096).stats  # unscaled row first
    assert shown[3].value == f"{stats.loc[False, 'saturated']:.1%}"
    assert [m.row for m in shown] == 4 * [t("saturation.unscaled", "en")] + 4 * [
        t("saturation.scaled", "en")
    ]
    assert shown[7].value == f"{stats.loc[True, 'saturated']:.1%}"
    np.testing.assert_allclose([raw_w, scaled_w], run.at(4096).example, atol=1e-6)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_formulas_shown_are_those_of_the_config_run(lang):
    at = run_page("saturation", lang=lang, N=4, rows=100)
    assert_clean(at)
    shown = latex(at)
    assert shown == saturation.run(saturation.Config(N=4, rows=100)).formulas
    joined = " ".join(shown)
    assert "\\sqrt{D}" in joined and "D'" not in joined  # one query, no heads


def test_capped_rows_are_announced():
    at = run_page("saturation", N=128, rows=2000)
    assert_clean(at)
    assert any("512" in i.value for i in at.info)  # 512 rows of 128 logits fit MAX_LOGITS
    at = run_page("saturation", N=8, rows=500)
    assert not at.info


@pytest.mark.parametrize(
    "params",
    [
        dict(N=2, rows=100, D="1"),
        dict(N=128, rows=2000, D="4096"),
        dict(N="99999", rows="-3", D="3", seed="abc"),
    ],
)
def test_extremes_and_hostile_values_render(params):
    at = run_page("saturation", **params)
    assert_clean(at)
    assert len(figures(at)) == 4
    assert 2 <= at.slider(key="N").value <= 128


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_keys_are_numbered_from_1_and_no_english_in_japanese_legends(lang):
    at = run_page("saturation", lang=lang, N=4, rows=100)
    assert_clean(at)
    row = traces(at, 1)
    assert decode(row[0]["x"]).tolist() == [1, 2, 3, 4]  # keys k_1 … k_N
    if lang == "ja":
        names = [t["name"] for i in range(4) for t in traces(at, i) if t.get("name")]
        assert not [n for n in names if "slope" in n or "unscaled" in n], names


def test_the_metric_labels_are_short_and_capitalised_alike():
    """ "saturated rows (largest weight > 0.99)" wrapped to three lines beside labels of one
    ("Var of logits", "mean largest weight"): each English label starts with a capital and
    fits two lines of a presenting column. The eight values are one table (ui.metrics), its
    labels once over both rows; ui/app.css levels the values whatever the labels' lines."""
    labels = {
        col: t(f"saturation.m_{col}", "en", t=saturation.SATURATED)
        for col in ("variance", "max_weight", "jacobian", "saturated")
    }
    assert all(label[0].isupper() for label in labels.values()), labels
    shown = {col: re.sub(r"\$[^$]*\$", "‖J‖F", label) for col, label in labels.items()}
    assert all(len(label) <= 24 for label in shown.values()), shown  # two lines at most
    assert "\u00a00.99" in labels["saturated"]  # the threshold stays on one line
    at = run_page("saturation", present="true")
    assert_clean(at)
    assert [m.label for m in metrics(at)] == 2 * list(labels.values())
    assert not at.metric and len([m for m in at.markdown if "attnviz-metrics" in m.value]) == 1


def test_presenting_the_small_multiples_label_D_at_powers_of_16():
    at = run_page("saturation", present="true", N=8, rows=100)
    assert_clean(at)
    curves = figures(at)[3]["layout"]
    assert curves["xaxis"]["tickvals"] == [1, 16, 256, 4096] and curves["height"] == 760
    assert figures(run_page("saturation", N=8, rows=100))[3]["layout"]["xaxis"]["tickvals"] == [
        4**k for k in range(7)
    ]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_sigma_q_and_sigma_k_move_the_law_the_chart_and_the_reading(lang):
    """Issue 45, item 5 (S3): σ_q = 2, σ_k = 2 put the red curve on Var = 16 D, the line drawn
    beside it, and the sentence under the chart reads Var(qᵀk)/D off the run."""
    at = run_page("saturation", lang=lang, N=8, rows=500, sq="2", sk="2", D="256")
    assert_clean(at)
    r = saturation.run(saturation.Config(N=8, rows=500, sigma_q=2.0, sigma_k=2.0))
    raw, _scaled, law, flat = traces(at, 2)
    np.testing.assert_allclose(
        decode(raw["y"]), r.curves[~r.curves["scaled"]]["variance"], rtol=1e-6
    )
    assert law["name"] == "Var = 16 D" and decode(law["y"]).tolist() == [16, 16 * 4096]
    assert flat["name"] == "Var = 16"
    var = r.at(256).stats.loc[False, "variance"]
    line = t(
        "saturation.var_read",
        lang,
        D=256,
        var=f"{var:,.0f}" if var >= 1000 else f"{var:.3g}",
        per_D=var / 256,
        law=16.0,
    )
    assert line in [m.value for m in at.markdown]
    assert abs(var / 256 - 16) < 1.6
    assert latex(at) == r.formulas
