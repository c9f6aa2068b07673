"""Training race page: starts on a click, draws both models' curves, keeps the result."""

import numpy as np
import pytest

from attnviz.lessons import training_race

from .helpers import assert_clean, decode, figures, latex, run_page, sweep_controls


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_race_runs_and_result_stays(lang):
    at = run_page("training_race", lang=lang, L="1", steps="20", task="copy", lr="-2.5")
    assert_clean(at)
    assert not figures(at)
    assert latex(at) == training_race.FORMULAS
    at.button(key="race_start").click().run()
    assert_clean(at)
    fig = figures(at)[-1]
    losses = [decode(tr["y"]) for tr in fig["data"] if tr["xaxis"] == "x"]
    cfg = training_race.Config(task="copy", L=1, lr=training_race.learning_rate(-2.5), steps=20)
    r = training_race.run(cfg)
    np.testing.assert_allclose(losses[0], [rec.loss["post"] for rec in r.records], rtol=1e-4)
    assert latex(at) == r.formulas
    kept = training_race.learned_positions(at.session_state)
    assert kept.cfg == cfg and kept.tables["post"].shape == (cfg.n, cfg.D)
    np.testing.assert_allclose(kept.tables["pre"], r.positions.tables["pre"], atol=1e-6)
    at.run()  # a rerun without a click keeps the curves
    assert_clean(at)
    assert figures(at)
    at.switch_page("pages/block/positional.py").run()  # the PE page now offers the learned tables
    at.selectbox(key="kind").set_value("race_pre").run()
    assert_clean(at)
    shown = decode(figures(at)[0]["data"][0]["z"])
    np.testing.assert_allclose(shown, kept.tables["pre"], atol=1e-6)


def test_extremes():
    at = run_page("training_race", L="0", lr="5", steps="100000", seed="-1", task="zzz")
    assert_clean(at)
    assert at.slider(key="L").value == 1 and at.slider(key="steps").value == 600


def test_every_control_at_its_extremes():
    at = run_page("training_race")
    assert sweep_controls(at) > 5
