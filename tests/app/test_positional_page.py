"""Positional-encoding page: the sinusoidal heat map is the engine's table; PE separates rows."""

import numpy as np
import pytest

from attnviz import formulas
from attnviz.i18n import t
from attnviz.lessons import positional
from attnviz.positional import sinusoidal

from .helpers import assert_clean, decode, figures, latex, run_page, sweep_controls


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_renders_and_matrix_is_sinusoidal(lang):
    at = run_page("positional", lang=lang, N="20", D="16")
    assert_clean(at)
    figs = figures(at)
    np.testing.assert_allclose(decode(figs[0]["data"][0]["z"]), sinusoidal(20, 16), atol=1e-6)
    S = decode(figs[1]["data"][0]["z"])
    np.testing.assert_allclose(S, S.T, atol=1e-5)
    none = [decode(tr["y"]) for tr in figs[2]["data"]]
    sin = [decode(tr["y"]) for tr in figs[3]["data"]]
    np.testing.assert_allclose(none[0], none[1], atol=1e-6)
    assert np.abs(sin[0] - sin[1]).max() > 1e-3


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize(
    ("params", "present", "absent"),
    [
        ({}, ["\\sin", "\\mathbf{p}_i^\\top \\mathbf{p}_j", "X + E"], ["\\lVert", "[X;\\ E]"]),
        ({"kind": "learned", "cosine": "true"}, ["\\lVert"], ["\\sin"]),
        ({"mode": "concat", "d_pos": "8"}, ["[X;\\ E]", "D + d_p"], ["X + E"]),
    ],
)
def test_formulas_shown_are_those_of_the_config_run(lang, params, present, absent):
    at = run_page("positional", lang=lang, N="10", D="8", **params)
    assert_clean(at)
    cfg = positional.Config(
        kind=params.get("kind", "sinusoidal"),
        N=10,
        D=8,
        cosine=params.get("cosine") == "true",
        d_pos=int(params.get("d_pos", 64)),
    )
    r = positional.run(cfg)
    text = at.text_input(key="text").value
    two = positional.same_word(positional.SameWord(text, params.get("mode", "add")))
    shown = latex(at)
    assert shown == r.formulas + r.widths.formulas + two.formulas  # the page's order
    joined = " ".join(shown)
    assert all(p in joined for p in present) and not any(a in joined for a in absent)


def test_race_encodings_are_offered_once_the_race_has_run():
    at = run_page("positional", kind="race_post")
    assert_clean(at)
    assert at.selectbox(key="kind").value == "sinusoidal"  # no race yet


@pytest.mark.parametrize(
    "params",
    [
        {"N": "1", "D": "2", "d_pos": "1"},
        {
            "N": "9999",
            "D": "9999",
            "d_pos": "9999",
            "mode": "concat",
            "kind": "learned",
            "cosine": "true",
        },
        {"D": "256"},
        {"D": "63"},
        {"text": "one two three"},
        {"text": ""},
    ],
)
def test_extremes(params):
    assert_clean(run_page("positional", **params))
    assert positional.widths(2, 1).concat == 3


def test_every_control_at_its_extremes():
    at = run_page("positional")
    assert sweep_controls(at) > 5
    for D in ("2", "256"):
        at.select_slider(key="D").set_value(D).run()
        assert_clean(at)
        assert decode(figures(at)[0]["data"][0]["z"]).shape == (50, int(D))


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_table_is_E_numbered_from_1(lang):
    """Item 1.7: the positional table is E = [p_1 … p_N]ᵀ (P is the permutation); rows and
    columns count from 1, as the formula's (p_i)_{2k-1} = sin((i - 1) ω_k) does."""
    at = run_page("positional", lang=lang, N="5", D="4")
    assert_clean(at)
    table = figures(at)[0]
    assert table["layout"]["title"]["text"].startswith("E")
    assert decode(table["data"][0]["y"]).tolist() == [1, 2, 3, 4, 5]
    assert decode(table["data"][0]["x"]).tolist() == [1, 2, 3, 4]
    assert any(r"E = [\mathbf{p}_1, \dots, \mathbf{p}_N]^\top" in c.value for c in at.caption)
    assert formulas.SINUSOIDAL in latex(at)
    np.testing.assert_allclose(decode(table["data"][0]["z"])[0], [0, 1, 0, 1], atol=1e-6)  # p_1


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("kind", ["sinusoidal", "learned"])
def test_the_similarity_note_says_what_attention_reads(lang, kind):
    """Item 1.9: attention scores (x_i + p_i)ᵀ W^Q W^Kᵀ (x_j + p_j), not p_iᵀp_j; the |i − j|
    sentence appears only under the sinusoidal table, where it is true."""
    at = run_page("positional", lang=lang, kind=kind)
    assert_clean(at)
    notes = " ".join(c.value for c in at.caption)
    score = r"{(\mathbf x_i + \mathbf p_i)^\top} W^Q (W^K)^\top {(\mathbf x_j + \mathbf p_j)}"
    assert score in notes  # its brackets grouped: not broken inside (xᵢ + pᵢ)
    assert ("|i − j|" in notes and ("だけで決まり" in notes or "depends only" in notes)) == (
        kind == "sinusoidal"
    )
    assert formulas.position_score("add") in latex(at)
    S = decode(figures(at)[1]["data"][0]["z"])
    toeplitz = np.allclose(np.diagonal(S, 1), np.diagonal(S, 1)[0], atol=1e-3)
    assert toeplitz == (kind == "sinusoidal")  # the note is true of the figure shown


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_captions_say_what_the_figures_hold(lang):
    """ "Random initial values" only under a learned table at initialisation; the similarity
    map's columns are j, as in S_ij = p_iᵀp_j; the same-word section says its own width (added,
    it did not: the formula's √D read as √8 at D = 8 while √64 was used)."""

    def captions(at) -> str:
        return " ".join(c.value for c in at.caption)

    sine = run_page("positional", lang=lang, D=8)
    assert t("positional.no_race", lang) not in captions(sine)
    # added, the section's width is not the slider's: √D in its formula is √64, not √8
    assert t("positional.same_word_add", lang, D=positional.SAME_WORD_D) in captions(sine)
    assert positional.SAME_WORD_D != 8 and "\\sqrt{D}" in " ".join(latex(sine))
    layout = figures(sine)[1]["layout"]
    assert layout["xaxis"]["title"]["text"] == t("positional.position_j", lang)
    assert layout["yaxis"]["title"]["text"] == t("positional.position", lang)
    learned = run_page("positional", lang=lang, kind="learned", mode="concat")
    shown = captions(learned)
    assert t("positional.no_race", lang) in shown
    assert t("positional.same_word_concat", lang, D=positional.SAME_WORD_D) in shown


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_same_word_rows_share_a_range_and_their_difference_reads_in_decimals(lang):
    """The two bar charts had y ranges 0.12 and 0.13; the difference read 「0.00e+00」
    beside 「0.021」. Presenting, the two charts stand one above the other."""
    at = run_page("positional", lang=lang)
    assert_clean(at)
    without, with_pe = figures(at)[2:4]
    top = max(decode(tr["y"]).max() for fig in (without, with_pe) for tr in fig["data"])
    assert without["layout"]["yaxis"]["range"] == with_pe["layout"]["yaxis"]["range"]
    assert without["layout"]["yaxis"]["range"][1] >= top
    labels = without["layout"]["xaxis"]["ticktext"]
    assert labels == list(without["data"][0]["x"])  # every token labelled
    diff = [m.value for m in at.markdown if m.value.startswith(t("positional.row_diff", lang)[:8])]
    assert len(diff) == 1 and "e+" not in diff[0] and "e-" not in diff[0]
    assert "0.000" in diff[0]  # no positions: the two rows are the same
    presenting = run_page("positional", lang=lang, present="true")
    assert_clean(presenting)
    in_columns = {el.proto.spec for col in presenting.columns for el in col.get("plotly_chart")}
    assert not {el.proto.spec for el in presenting.get("plotly_chart")[2:4]} & in_columns
