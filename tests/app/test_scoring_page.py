"""The scoring page: both languages; its figures are the engine's scores, weights, all queries
at once and the shuffle; its captions say what its figures show."""

import numpy as np
import pytest

from attnviz import formulas
from attnviz.i18n import t
from attnviz.lessons import scoring
from attnviz.scores import SCORES

from .helpers import (
    assert_clean,
    caption_text,
    decode,
    figures,
    latex,
    metrics,
    run_page,
    sweep_controls,
)


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("score", ["dot", "scaled_dot", "bilinear", "mlp", "query_only"])
def test_renders_and_matches_the_engine(lang, score):
    at = run_page("scoring", lang=lang, score=score)
    assert_clean(at)
    figs = figures(at)
    text = at.text_input(key="text").value
    query = at.text_input(key="query").value
    r = scoring.run(scoring.Config(text=text, query=query, score=score, shuffle_seed=1))
    np.testing.assert_allclose(decode(figs[0]["data"][0]["y"]), r.scores, rtol=1e-6)
    weights = decode(figs[1]["data"][0]["y"])
    np.testing.assert_allclose(weights, r.weights, rtol=1e-6)
    np.testing.assert_allclose(decode(figs[2]["data"][0]["y"]), r.attended[:32], rtol=1e-6)
    np.testing.assert_allclose(decode(figs[3]["data"][0]["z"]), r.by_score, rtol=1e-6)
    np.testing.assert_allclose(decode(figs[4]["data"][0]["z"]), r.many, rtol=1e-6)
    np.testing.assert_allclose(decode(figs[5]["data"][0]["z"]), r.many_attended[:, :32], rtol=1e-6)
    assert [m.value for m in metrics(at)] == [scoring.change(r.follows), scoring.change(r.stays)]


def test_the_shuffle_chart_is_the_runs_weights_before_and_after():
    """Which scores the shuffle moves is tests/lessons/test_scoring.py's
    test_shuffle_tells_content_from_position; the page draws the run's two series."""
    for score in ("scaled_dot", "query_only"):
        at = run_page("scoring", score=score, shuffle=3)
        for seed in (3, 0):  # 0, set on the page: no shuffle
            if seed == 0:
                at.number_input(key="shuffle").set_value(0).run()
            assert_clean(at)
            text, query = at.text_input(key="text").value, at.text_input(key="query").value
            cfg = scoring.Config(text=text, query=query, score=score, shuffle_seed=seed)
            r = scoring.run(cfg)
            before, after = (decode(tr["y"]) for tr in figures(at)[6]["data"])
            np.testing.assert_allclose(before, r.weights, rtol=1e-6)
            np.testing.assert_allclose(after, r.shuffled, rtol=1e-6)


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize(
    ("score", "present", "absent"),
    [
        ("scaled_dot", ["\\sqrt{D}", "X^\\top"], ["\\tanh", "D'"]),
        ("dot", ["\\exp r"], ["\\sqrt", "D'"]),
        ("bilinear", ["W \\mathbf{q}}{\\sqrt{D}}"], ["D'"]),
        ("mlp", ["\\tanh", "\\exp r"], ["\\sqrt", "D'"]),
        ("query_only", ["(W \\mathbf{q})_j"], ["\\sqrt", "\\tanh"]),
    ],
)
def test_formulas_shown_are_those_of_the_config_run(lang, score, present, absent):
    at = run_page("scoring", lang=lang, score=score, text="a b c", query="b", D=16)
    assert_clean(at)
    shown = latex(at)
    cfg = scoring.Config(text="a b c", query="b", D=16, score=score, shuffle_seed=1)
    r = scoring.run(cfg)
    assert shown == r.formulas + r.many_formulas  # the page's order
    joined = " ".join(shown)
    assert all(p in joined for p in present) and not any(a in joined for a in absent)


def test_D_is_a_slider_over_the_widths_kept_by_name():
    at = run_page("scoring", D=1024)  # a link from when D was a select box
    assert_clean(at)
    assert at.select_slider(key="D").value == "1024"
    assert len(decode(figures(at)[2]["data"][0]["y"])) == 32  # the first 32 of 1024 components
    at = run_page("scoring", D=100)  # not one of the widths: dropped with a notice
    assert_clean(at)
    assert at.select_slider(key="D").value == "64" and at.warning
    at.select_slider(key="D").set_value("2").run()
    assert_clean(at)
    assert len(decode(figures(at)[2]["data"][0]["y"])) == 2


def test_random_sources_and_controls_at_their_extremes():
    at = run_page("scoring", source="random", N=512, D=1024, score="mlp", hidden=256)
    assert_clean(at)
    assert len(decode(figures(at)[1]["data"][0]["y"])) == 512
    at = run_page("scoring", text="   ", query="")
    assert_clean(at)
    assert at.error  # a translated message instead of a figure


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("source", ["text", "random"])
def test_every_control_reruns_cleanly(lang, source):
    at = run_page("scoring", lang=lang, source=source)
    assert sweep_controls(at) >= 8


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_sqrt_D_caption_is_true_of_the_default_figure(lang):
    """Item 1.2: at the defaults q is no source; the caption's numbers are the figure's."""
    at = run_page("scoring", lang=lang)
    assert_clean(at)
    assert at.text_input(key="query").value == t("scoring.default_query", lang)
    tokens = [label.split(":", 1)[1] for label in figures(at)[1]["layout"]["xaxis"]["ticktext"]]
    query = at.text_input(key="query").value.replace("、", ",").split(",")[0].strip()
    assert query not in tokens  # the old default, cat / 猫, was one of the sources
    z = decode(figures(at)[3]["data"][0]["z"])  # rows: the five scores
    dot, scaled = z[list(SCORES).index("dot")], z[list(SCORES).index("scaled_dot")]
    share = {
        tok: (dot[np.array(tokens) == tok].sum(), scaled[np.array(tokens) == tok].sum())
        for tok in tokens
    }
    top_dot, top_scaled = max(v[0] for v in share.values()), max(v[1] for v in share.values())
    assert top_dot > 0.9 and top_scaled < 0.5
    caption = t("scoring.sqrt_caption", lang, q=query, dot=top_dot, scaled=top_scaled, root=8.0)
    assert caption in caption_text(at)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_random_sources_get_a_caption_about_vectors_with_the_charts_shares(lang):
    """Random vectors are no words: their caption names sources, with the largest weight of
    the dot and scaled-dot rows of the five-scores chart (512 sources: numbered axis)."""
    at = run_page("scoring", lang=lang, source="random", N=512)
    assert_clean(at)
    z = decode(figures(at)[3]["data"][0]["z"])
    top_dot, top_scaled = (
        z[list(SCORES).index("dot")].max(),
        z[list(SCORES).index("scaled_dot")].max(),
    )
    caption = t(
        "scoring.sqrt_caption_random", lang, N=512, q="q1", dot=top_dot, scaled=top_scaled, root=8.0
    )
    shown = caption_text(at)
    assert caption in shown
    shares = dict(q="q1", dot=top_dot, scaled=top_scaled, root=8.0)
    assert t("scoring.sqrt_caption", lang, **shares) not in shown  # the one about words


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_query_that_is_a_source_gets_the_self_match_caption(lang):
    word = "猫" if lang == "ja" else "cat"
    at = run_page("scoring", lang=lang, query=word, D=1024)
    assert_clean(at)
    r = scoring.run(
        scoring.Config(text=t("scoring.default_text", lang), query=word, D=1024, shuffle_seed=1)
    )
    assert r.self_index is not None and r.top_share["scaled_dot"] > 0.99
    shares = dict(q=word, dot=r.top_share["dot"], scaled=r.top_share["scaled_dot"], root=32.0)
    want = t("scoring.self_caption", lang, i=r.self_index + 1, self=r.self_score, **shares)
    assert want in caption_text(at)
    assert not [
        c for c in at.caption if "none of the sources" in c.value or "どのソースとも" in c.value
    ]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_all_queries_at_once_with_the_chapter_formulas(lang):
    """Item 1.5: S9 and S11 on the page, beside the M × N map they computed."""
    at = run_page("scoring", lang=lang)
    assert_clean(at)
    shown = latex(at)
    for line in formulas.many_queries("scaled_dot"):
        assert line in shown
    assert any("\\mathcal{A}_D(Q, X, X)" in f for f in shown)
    A = decode(figures(at)[4]["data"][0]["z"])  # the run's r.many: test_renders_and_matches_...
    assert len(A) == 3  # pet, cat, bird / ペット、猫、鳥
    assert figures(at)[4]["layout"]["yaxis"]["ticktext"][0].startswith("1:")


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "ja",
            [
                r"$X = [z_1, \dots, z_N]^\top",
                "加法的注意",
                "q と位置 i で決まり、$z_i$ にはよりません",
            ],
        ),
        (
            "en",
            [
                r"$X = [z_1, \dots, z_N]^\top",
                "additive attention",
                "depend on q and on",
                "never on $z_i$",
            ],
        ),
    ],
)
def test_symbols_additive_attention_and_query_only_said_in_the_chapter_s_terms(lang, words):
    """Item 1.9: X = [z_1 … z_N]ᵀ; the MLP score generalises additive attention; query-only
    weights depend on q and the position, never on z."""
    at = run_page("scoring", lang=lang)
    assert_clean(at)
    text = "\n".join(c.value for c in at.caption)
    text = text.replace("${", "$").replace("}$", "$")  # a short formula is one group
    assert all(w in text for w in words), [w for w in words if w not in text]


def _in_columns(at) -> set[str]:
    """Titles of the charts drawn inside st.columns (the page's split and its pairs)."""
    import json

    return {
        json.loads(el.proto.spec)["layout"].get("title", {}).get("text", "")
        for col in at.columns
        for el in col.get("plotly_chart")
    }


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_presenting_the_five_scores_are_named_by_formula_and_the_two_maps_stack(lang):
    """At 1024 px presenting, the full names left the five-scores map ~60 px wide and the
    A and Q̃ maps side by side ~60 px each: the axis shows formulas (names in the hover and
    a caption, top to bottom) and the two maps stand one above the other."""
    at = run_page("scoring", lang=lang, present="true")
    assert_clean(at)
    figs = figures(at)
    names = [t(f"names.{name}", lang) for name in SCORES]
    short = [t(f"scoring.row_{name}", lang) for name in SCORES]
    assert figs[3]["layout"]["yaxis"]["ticktext"] == short
    assert max(len(s) for s in short) <= 12
    hover = np.array(figs[3]["data"][0]["customdata"])
    assert [row[0].split(" → ")[0] for row in hover] == names
    key = t("scoring.all_rows", lang, rows=t("scoring.list_sep", lang).join(names))
    assert key in caption_text(at)
    stacked = {figs[4]["layout"]["title"]["text"], figs[5]["layout"]["title"]["text"]}
    assert not stacked & _in_columns(at)
    desk = run_page("scoring", lang=lang)  # on a desk: full names, the maps side by side
    desk_figs = figures(desk)
    assert desk_figs[3]["layout"]["yaxis"]["ticktext"] == names
    assert desk_figs[4]["layout"]["title"]["text"] in _in_columns(desk)
    assert key not in caption_text(desk)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_shuffle_chart_names_its_axis_and_float_noise_reads_as_zero(lang):
    """The y axis is "attention weight a", not a bare "a"; a change of 3e-08 (float32
    rounding) shows as ≈ 0 with the tolerance stated, a real change as its decimals."""
    at = run_page("scoring", lang=lang)
    assert_clean(at)
    shuffle = figures(at)[6]
    assert shuffle["layout"]["yaxis"]["title"]["text"] == t("scoring.weight_axis", lang)
    assert shuffle["layout"]["yaxis"]["title"]["text"] != "a"
    r = scoring.run(
        scoring.Config(
            text=at.text_input(key="text").value,
            query=at.text_input(key="query").value,
            shuffle_seed=1,
        )
    )
    assert r.follows < scoring.ZERO_TOL and r.stays > 0.01  # (ja: 2.98e-08) and a real change
    shown = metrics(at)
    assert [m.value for m in shown] == ["≈ 0", f"{r.stays:.3f}"]
    labels = [t("scoring.follow_metric", lang), t("scoring.stay_metric", lang)]
    assert [m.label for m in shown] == labels
    note = t("scoring.zero_note", lang, exp=scoring.ZERO_TOL_EXP)
    assert note in caption_text(at) and "10^{-6}" in note


def test_a_change_reads_as_zero_only_below_the_tolerance():
    assert scoring.change(2.98e-08) == "≈ 0" and scoring.change(0.0) == "≈ 0"
    assert scoring.change(0.268) == "0.268"
    assert scoring.change(3e-5) == "3e-05"  # small but real: not hidden as 0.000 or ≈ 0
    assert scoring.ZERO_TOL == 1e-6
