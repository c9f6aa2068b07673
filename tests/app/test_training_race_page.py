"""Training race page: maps before the race, live race on a click, curves kept, and the step
slider replaying recorded frames without computing anything."""

import numpy as np
import pytest

from attnviz import stack
from attnviz.charts import race_maps
from attnviz.i18n import t
from attnviz.lessons import training_race
from attnviz.lessons.training_race import config as race_config
from attnviz.lessons.training_race import results as race_results
from pages.block import training_race_views as views
from ui import keys

from .helpers import assert_clean, decode, figures, latex, run_page, sweep_controls


def shown_maps(at) -> dict[str, np.ndarray]:
    """The maps figure's tiles back as (L, H, n, n) per model, post-LN left, pre-LN right."""
    fig = next(f for f in figures(at) if f["data"][0]["type"] == "heatmap")
    cfg = race_config.Config()
    n, H = cfg.n, cfg.H
    out = {}
    for part, (norm, trace) in enumerate(zip(training_race.NORMS, fig["data"], strict=True)):
        z = decode(trace["z"])
        L = (z.shape[0] + race_maps.GAP) // (n + race_maps.GAP)
        tiles = np.empty((L, H, n, n), np.float32)
        for layer in range(L):
            for head in range(H):
                r, c = race_maps.tile_origin(layer, head, part, n, H)
                tiles[layer, head] = z[r : r + n, c : c + n]
        out[norm] = tiles
    return out


def curves(fig: dict, mode: str) -> dict[tuple[str, str], dict]:
    """The race figure's traces of ``mode`` (lines, or the markers at the frame shown) by
    (norm, "loss" | "accuracy"): loss in the left panel, accuracy in the right."""
    panel = {"x": "loss", "x2": "accuracy"}
    return {(tr["legendgroup"], panel[tr["xaxis"]]): tr for tr in fig["data"] if tr["mode"] == mode}


def assert_scores_drawn(fig: dict, frames) -> None:
    """The pattern-score figure is ``frames``' scores: one line per model, layer and head
    over every recorded frame's step (and last, the legend's entry for the dotted line)."""
    cfg, n = frames.cfg, frames.count
    lines = iter(fig["data"])
    for norm in training_race.NORMS:
        for layer in range(cfg.L):
            for head in range(cfg.H):
                tr = next(lines)
                assert decode(tr["x"]).tolist() == frames.steps[:n].tolist()
                np.testing.assert_array_equal(decode(tr["y"]), frames.scores[norm][:n, layer, head])
    assert next(lines)["x"] == [None]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_maps_before_the_race_then_a_race_replayed_by_the_step_slider(lang, monkeypatch):
    at = run_page("training_race", lang=lang, L="1", steps="20", task="copy", lr="-2.5")
    assert_clean(at)
    cfg = race_config.Config(task="copy", L=1, lr=race_config.learning_rate(-2.5), steps=20)
    assert latex(at) == training_race.race_formulas(cfg)
    assert len(figures(at)) == 1  # the maps at initialisation, no curves yet
    where = figures(at)[0]["data"][0]["customdata"][0][0].split("<br>")[0]  # layer 1, head 1
    assert where == ("層 1・ヘッド 1" if lang == "ja" else "Layer 1, head 1")  # as the grids say
    first = training_race.initial(cfg)
    for norm, tiles in shown_maps(at).items():  # that their rows sum to 1 is the lesson's
        np.testing.assert_array_equal(tiles, first.decode(0, norm))

    at.button(key="race_start").click().run()
    assert_clean(at)
    r = training_race.run(cfg)
    lines = curves(figures(at)[0], "lines")
    assert sorted(lines) == sorted(
        (n, v) for n in training_race.NORMS for v in ("loss", "accuracy")
    )
    history = race_results.history(r.records)  # step, norm, loss, accuracy
    for (norm, value), tr in lines.items():
        run_of = history[history["norm"] == norm]
        assert decode(tr["x"]).tolist() == run_of["step"].tolist()
        np.testing.assert_allclose(decode(tr["y"]), run_of[value], rtol=1e-4, err_msg=value)
    lists = [m.value for m in at.markdown if m.value.startswith("- ")]  # one list, one element
    summary = [line for items in lists for line in items.split("\n")]
    assert summary == [
        "- "
        + t("training_race.result", lang, name=t(f"names.norm_{norm}", lang), loss=loss, acc=acc)
        for norm, (loss, acc) in race_results.summary(r.records).items()
    ]
    kept = at.session_state[keys.RACE_POSITIONS]
    assert kept.cfg == cfg
    for norm in training_race.NORMS:
        np.testing.assert_allclose(kept.tables[norm], r.positions.tables[norm], atol=1e-6)

    calls = []  # every forward pass of any model from here on
    original = stack.TransformerStack.forward
    monkeypatch.setattr(
        stack.TransformerStack, "forward", lambda *a, **k: calls.append(1) or original(*a, **k)
    )
    state = at.session_state[keys.RACE]
    frames = state["frames"]
    assert frames.count == len(r.frames.steps) and frames.steps[-1] == cfg.steps
    slider = at.select_slider(key="race_frame")
    assert [int(v) for v in slider.options] == frames.steps.tolist()
    for f in (0, 2, frames.count - 1, 1):
        at.select_slider(key="race_frame").set_value(int(frames.steps[f])).run()
        assert_clean(at)
        for norm, tiles in shown_maps(at).items():
            np.testing.assert_array_equal(tiles, frames.decode(f, norm))
            np.testing.assert_array_equal(frames.maps[norm][f], r.frames.maps[norm][f])
        best = {  # the best head named under the maps is the run's at that frame
            norm: t(
                "training_race.best_head",
                lang,
                name=t(f"training_race.short_{norm}", lang),
                **dict(zip(("layer", "head", "score"), r.frames.best(f, norm), strict=True)),
            )
            for norm in training_race.NORMS
        }
        step = int(frames.steps[f])
        line = t("training_race.scores_now", lang, t=step, chance=r.frames.chance, **best)
        assert line in [p for m in at.markdown for p in m.value.split("\n\n")]  # under its heading
        marked = curves(figures(at)[0], "markers")
        if f:  # the curves' dots sit on the loss and accuracy after that step
            assert sorted(marked) == sorted(lines)
            at_step = history[history["step"] == frames.steps[f]].set_index("norm")
            for (norm, value), tr in marked.items():
                assert decode(tr["x"]).tolist() == [frames.steps[f]]
                np.testing.assert_allclose(decode(tr["y"]), [at_step.at[norm, value]], rtol=1e-4)
        else:  # step 0: before any step, no loss yet
            assert not marked
        assert_scores_drawn(figures(at)[2], r.frames)
    assert not calls
    at.run()  # a rerun without a click keeps the curves and computes nothing
    assert_clean(at)
    assert len(figures(at)) == 3 and not calls
    training_race.initial(cfg)  # the counter does see a computation
    assert calls

    at.switch_page("pages/block/positional.py").run()  # the PE page offers the learned tables
    at.selectbox(key="kind").set_value("race_pre").run()
    assert_clean(at)
    shown = decode(figures(at)[0]["data"][0]["z"])
    np.testing.assert_allclose(shown, kept.tables["pre"], atol=1e-6)


def test_the_time_quoted_before_a_race_is_at_this_servers_pace(monkeypatch):
    """The page's "about N s" was a constant's guess, 6 s for races that took 14 to 18."""
    monkeypatch.setattr(views, "_pace", [1.25])
    tiny = race_config.Config(task="copy", L=1, steps=20)
    at = run_page("training_race", L="1", steps="20", task="copy")
    assert at.info[0].value == t("training_race.press_start", "en", secs=1)  # at least 1 s
    at.button(key="race_start").click().run()
    assert views._pace == [1.25] and tiny.seconds < views.TIMED_S  # too short to time
    timed = race_config.Config(task="copy", L=2, steps=200)
    at = run_page("training_race", L="2", steps="200", task="copy")
    assert at.info[0].value == t(
        "training_race.press_start", "en", secs=round(timed.seconds * 1.25)
    )
    at.button(key="race_start").click().run()
    pace = views._pace[0]
    assert pace != 1.25 and pace > 0  # the race's wall time over the estimate
    at = run_page("training_race", L="12", steps="600")
    quoted = round(race_config.Config(L=12, steps=600).seconds * pace)
    assert at.info[0].value == t("training_race.press_start", "en", secs=quoted)


def test_other_settings_keep_the_old_race_with_a_warning():
    at = run_page("training_race", L="1", steps="20", task="reverse")
    at.button(key="race_start").click().run()
    at.radio(key="task").set_value("sort").run()
    assert_clean(at)
    assert any("other settings" in w.value for w in at.warning)
    assert "anti-diagonal" in " ".join(c.value for c in at.caption)  # still the reverse race


def test_extremes():
    at = run_page("training_race", L="0", lr="5", steps="100000", seed="-1", task="zzz")
    assert_clean(at)
    assert at.slider(key="L").value == 1 and at.slider(key="steps").value == 600


def test_every_control_at_its_extremes():
    at = run_page("training_race")
    assert sweep_controls(at) > 5
