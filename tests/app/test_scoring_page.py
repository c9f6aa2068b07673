"""The scoring page: both languages; its figures are the engine's scores, weights and shuffle."""

import numpy as np
import pytest

from attnviz.lessons import scoring

from .helpers import assert_clean, decode, figures, latex, run_page, sweep_controls


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
    assert weights.sum() == pytest.approx(1.0, abs=1e-5)
    np.testing.assert_allclose(decode(figs[2]["data"][0]["y"]), r.attended[:32], rtol=1e-6)
    np.testing.assert_allclose(decode(figs[3]["data"][0]["z"]), r.by_score, rtol=1e-6)
    np.testing.assert_allclose(decode(figs[3]["data"][0]["z"]).sum(axis=1), 1.0, atol=1e-5)
    assert [m.value for m in at.metric] == [f"{r.follows:.2e}", f"{r.stays:.2e}"]


def test_shuffle_moves_content_weights_but_not_query_only():
    for score, moves in (("scaled_dot", True), ("query_only", False)):
        at = run_page("scoring", score=score, shuffle=3)
        before, after = (decode(tr["y"]) for tr in figures(at)[4]["data"])
        assert (np.abs(before - after).max() > 1e-3) == moves
        at.number_input(key="shuffle").set_value(0).run()  # no shuffle: nothing moves
        before, after = (decode(tr["y"]) for tr in figures(at)[4]["data"])
        np.testing.assert_array_equal(before, after)


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
    assert shown == scoring.run(cfg).formulas
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
