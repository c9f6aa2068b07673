"""The scoring page: both languages; its figures are the engine's scores, weights and shuffle."""

import numpy as np
import pytest

from attnviz.lessons import scoring

from .helpers import assert_clean, decode, figures, run_page, sweep_controls


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("score", ["dot", "scaled_dot", "bilinear", "mlp", "query_only"])
def test_renders_and_matches_the_engine(lang, score):
    at = run_page("scoring", lang=lang, score=score)
    assert_clean(at)
    figs = figures(at)
    text = at.text_input(key="text").value
    query = at.text_input(key="query").value
    r = scoring.run("text", text, query, 0, 64, 0)
    i = r.names.index(score)
    np.testing.assert_allclose(decode(figs[0]["data"][0]["y"]), r.scores[i], rtol=1e-6)
    weights = decode(figs[1]["data"][0]["y"])
    np.testing.assert_allclose(weights, r.weights[i], rtol=1e-6)
    assert weights.sum() == pytest.approx(1.0, abs=1e-5)
    np.testing.assert_allclose(decode(figs[3]["data"][0]["z"]).sum(axis=1), 1.0, atol=1e-5)


def test_shuffle_moves_content_weights_but_not_query_only():
    for score, moves in (("scaled_dot", True), ("query_only", False)):
        at = run_page("scoring", score=score, shuffle=3)
        before, after = (decode(tr["y"]) for tr in figures(at)[4]["data"])
        assert (np.abs(before - after).max() > 1e-3) == moves
        at.number_input(key="shuffle").set_value(0).run()  # no shuffle: nothing moves
        before, after = (decode(tr["y"]) for tr in figures(at)[4]["data"])
        np.testing.assert_array_equal(before, after)


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
