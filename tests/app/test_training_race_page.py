"""Training race page: starts on a click, draws both models' curves, keeps the result."""

import numpy as np
import pytest

from attnviz.lessons import training

from .helpers import assert_clean, decode, figures, run_page, sweep_controls


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_race_runs_and_result_stays(lang):
    at = run_page("training_race", lang=lang, L="1", steps="20", task="copy", lr="-2.5")
    assert_clean(at)
    assert not figures(at)
    at.button(key="race_start").click().run()
    assert_clean(at)
    fig = figures(at)[-1]
    losses = [decode(tr["y"]) for tr in fig["data"] if tr["xaxis"] == "x"]
    cfg = training.RaceConfig(task="copy", L=1, lr=float(f"{10**-2.5:.3g}"), steps=20)
    records, _ = training.run(cfg)
    np.testing.assert_allclose(losses[0], [r.loss["post"] for r in records], rtol=1e-4)
    assert st_pe(at)["post"].shape == (cfg.n, cfg.D)
    at.run()  # a rerun without a click keeps the curves
    assert_clean(at)
    assert figures(at)
    at.switch_page("pages/block/positional.py").run()  # the PE page now offers the learned tables
    at.selectbox(key="kind").set_value("race_pre").run()
    assert_clean(at)
    shown = decode(figures(at)[0]["data"][0]["z"])
    np.testing.assert_allclose(shown, st_pe(at)["pre"], atol=1e-6)


def st_pe(at):
    return at.session_state["race_pe"]


def test_extremes():
    at = run_page("training_race", L="0", lr="5", steps="100000", seed="-1", task="zzz")
    assert_clean(at)
    assert at.slider(key="L").value == 1 and at.slider(key="steps").value == 600


def test_every_control_at_its_extremes():
    at = run_page("training_race")
    assert sweep_controls(at) > 5
