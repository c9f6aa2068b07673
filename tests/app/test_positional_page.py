"""Positional-encoding page: its table E, similarity S, the same word's rows, their difference
and formulas are the lesson's run and same_word for the page's config, read back from the page
(the laws they obey are tests/lessons/test_positional.py's and tests/test_positional.py's)."""

import numpy as np
import pytest

from attnviz.errors import InputError
from attnviz.i18n import t
from attnviz.lessons import positional
from attnviz.limits import MAX_D

from .helpers import assert_clean, decode, figures, latex, run_page, sweep_controls


def shown(at) -> tuple[positional.Config, positional.SameWord]:
    """The lesson's two configs as the page's widgets now hold them."""
    cfg = positional.Config(
        kind=at.selectbox(key="kind").value,
        N=at.slider(key="N").value,
        D=int(at.select_slider(key="D").value),
        seed=int(at.number_input(key="seed").value),
        cosine=at.toggle(key="cosine").value,
        d_pos=at.slider(key="d_pos").value,
    )
    same = positional.SameWord(
        at.text_input(key="text").value,
        at.radio(key="mode").value,
        int(at.number_input(key="head_seed").value),
        float(at.select_slider(key="s").value),
    )
    return cfg, same


def assert_draws(at, cfg: positional.Config, same: positional.SameWord, lang: str = "en"):
    """The page draws ``run(cfg)`` and ``same_word(same)``: the table and similarity maps,
    both bar charts' rows, their difference, the widths and difference lines, every formula
    in page order
    (or, with no repeated word or none at all, the notice in place of the same-word section)."""
    r = positional.run(cfg)
    try:
        two, refused = positional.same_word(same), None
    except InputError as err:  # e.g. no token: the engine's message in place of the section
        detail = t(f"errors.{err.key}", lang, **err.fields)
        two, refused = None, t("app.invalid", lang, detail=detail)
    figs = figures(at)
    np.testing.assert_array_equal(decode(figs[0]["data"][0]["z"]), r.E)
    np.testing.assert_array_equal(decode(figs[1]["data"][0]["z"]), r.G)
    lines = [p for m in at.markdown for p in m.value.split("\n\n")]  # a run of text is one
    w = r.widths
    widths = t("positional.widths", lang, D=cfg.D, d_pos=cfg.d_pos, add=w.add, concat=w.concat)
    assert widths in lines
    if two is None:
        assert len(figs) == 2
        if refused:
            assert [e.value for e in at.error] == [refused]
        else:
            assert [i.value for i in at.info] == [t("positional.no_repeat", lang)]
        assert latex(at) == r.formulas + w.formulas
        return
    for fig, pe in zip(figs[2:4], ("none", "sinusoidal"), strict=True):
        bars = np.stack([decode(tr["y"]) for tr in fig["data"]])  # (2, N): positions i, j
        np.testing.assert_array_equal(bars, two.rows[pe])
    delta = np.stack([decode(tr["y"]) for tr in figs[4]["data"]])  # (2, N): none, sinusoidal
    np.testing.assert_array_equal(delta, np.stack([two.difference[pe] for pe in two.rows]))
    sin, uniform = two.diff["sinusoidal"], two.uniform
    diff = t(
        "positional.row_diff",
        lang,
        none=two.diff["none"],
        sin=sin,
        uniform=uniform,
        ratio=sin / uniform,
        N=len(two.tokens),
    )
    assert diff in lines
    assert latex(at) == r.formulas + w.formulas + two.formulas  # the page's order


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_renders_the_runs_table_similarity_and_rows(lang):
    at = run_page("positional", lang=lang, N="20", D="16")
    assert_clean(at)
    cfg, same = shown(at)
    assert cfg == positional.Config(N=20, D=16) and same.mode == "add"
    assert_draws(at, cfg, same, lang)


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize(
    "params",
    [{}, {"kind": "learned", "cosine": "true", "seed": "5"}, {"mode": "concat", "d_pos": "8"}],
)
def test_formulas_shown_are_those_of_the_config_run(lang, params):
    """Which formula each config shows (\\sin only for the sinusoidal table, the cosine's
    norms, X + E or [X; E]) is the lesson's; the page shows the run's, in order."""
    at = run_page("positional", lang=lang, N="10", D="8", **params)
    assert_clean(at)
    cfg = positional.Config(
        kind=params.get("kind", "sinusoidal"),
        N=10,
        D=8,
        seed=int(params.get("seed", 0)),
        cosine=params.get("cosine") == "true",
        d_pos=int(params.get("d_pos", 64)),
    )
    assert_draws(at, cfg, shown(at)[1], lang)


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
    """Values past a control's ends are clamped to them, one not offered is the default; the
    page draws the run of what its controls then hold."""
    at = run_page("positional", **params)
    assert_clean(at)
    cfg, same = shown(at)
    if params.get("N") == "9999":
        assert (cfg.N, cfg.D, cfg.d_pos) == (positional.MAX_POSITIONS, 64, MAX_D)
    assert_draws(at, cfg, same)


def test_every_control_at_its_extremes():
    at = run_page("positional")
    assert sweep_controls(at) > 5
    for D in ("2", "256"):
        at.select_slider(key="D").set_value(D).run()
        assert_clean(at)
        cfg, same = shown(at)
        assert cfg == positional.Config(D=int(D))  # the sweep left every other control as it was
        assert_draws(at, cfg, same)


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
    assert_draws(at, positional.Config(N=5, D=4), shown(at)[1], lang)  # row 1 is p_1


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
    # the figure the note is under is the run's: whether S_ij depends only on |i − j| for
    # each kind is tests/lessons/test_positional.py's
    assert_draws(at, positional.Config(kind=kind), shown(at)[1], lang)


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
    assert_draws(at, *shown(at), lang)  # the difference line is the run's
    presenting = run_page("positional", lang=lang, present="true")
    assert_clean(presenting)
    in_columns = {el.proto.spec for col in presenting.columns for el in col.get("plotly_chart")}
    assert not {el.proto.spec for el in presenting.get("plotly_chart")[2:4]} & in_columns


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_repeated_words_difference_is_drawn_on_its_own_scale(lang):
    """Issue 45, item 3: the two rows differed by 0.021 (ja) on charts whose y axis ran to
    0.13, and looked the same. The difference row Δ_k = a_jk − a_ik is drawn on a y range
    scaled to it; at the page's defaults it is at least 0.15, more than 1/N, and 0
    without positions. Its head has its own seed (the table's seed no longer moves it)."""
    at = run_page("positional", lang=lang)
    assert_clean(at)
    cfg, same = shown(at)
    two = positional.same_word(same)
    assert (same.seed, same.qk_scale) == (positional.SAME_WORD_SEED, positional.SAME_WORD_SCALE)
    delta = figures(at)[4]
    reach = delta["layout"]["yaxis"]["range"]
    assert reach[0] == pytest.approx(-reach[1]) and reach[1] == pytest.approx(
        1.1 * two.diff["sinusoidal"]
    )
    assert two.diff["none"] == 0 and two.diff["sinusoidal"] > 0.15
    assert two.diff["sinusoidal"] / two.uniform > 1  # larger than a uniform weight
    assert positional.formulas.ROW_DIFFERENCE in latex(at)
    assert_draws(at, cfg, same, lang)
    # the table's seed draws only a learned table: the same-word rows stay as they were
    moved = run_page("positional", lang=lang, seed="7")
    assert shown(moved)[1] == same
