"""The training race page's right-hand side, drawn by pages/block/training_race.py: the
race run live, then replayed from the frames kept in session state (``replay``, an
``st.fragment``: moving its step slider reruns only it and computes nothing), with the
curves, every head's maps on the probe sequence and the pattern scores.
"""

from __future__ import annotations

import math
import time
from contextlib import closing
from functools import partial

import streamlit as st

from attnviz.charts import race_maps
from attnviz.charts import training_race as charts
from attnviz.lessons import training_race
from attnviz.lessons.training_race import config as race_config
from attnviz.lessons.training_race import frames as race_frames
from attnviz.lessons.training_race import results as race_results
from ui.compute import compute, in_turn
from ui.export import csv_button, plot
from ui.keys import RACE, RACE_FRAME, RACE_POSITIONS
from ui.language import tr
from ui.layout import presenting

# this server's pace: its last finished race's wall time over race_config's estimate
# (drawing, and waiting for a turn while other races run, included); before any race, the
# drawing's share (run_race keeps it to about a fifth of the race's time). Only a race
# estimated at TIMED_S or more sets it: a shorter one is mostly the first drawing's time.
_pace = [1.25]
TIMED_S = 3.0


def expected_seconds(cfg: race_config.Config) -> int:
    """About how long the race ``cfg`` will take on this server, in whole seconds."""
    return max(1, round(cfg.seconds * _pace[0]))


def names(prefix: str = "names.norm_") -> dict[str, str]:
    """Each model's name in this run's language (``training.short_``: the short one)."""
    return {n: tr(f"{prefix}{n}") for n in training_race.NORMS}


def layer_head() -> str:
    """A head's name with its layer, as the real model's grid names it: "Layer {l}, head {h}"
    (「層 {l}・ヘッド {h}」)."""
    return tr("names.layer_head", l="{l}", h="{h}")


def probe_line(frames: race_frames.Frames) -> None:
    """The probe sequence the maps read and the output its task asks for."""
    target = frames.probe[frames.target.argmax(1)]  # the digit each output position needs
    digits = dict(tokens=" ".join(map(str, frames.probe)), target=" ".join(map(str, target)))
    name = tr(f"training_race.task_{frames.cfg.task}")
    st.markdown(tr("training_race.probe", task=name, **digits))
    st.caption(tr("training_race.maps_caption", chance=frames.chance))


def show_maps(frames: race_frames.Frames, f: int, key: str) -> None:
    """Frame f's maps of both models (None where a model had diverged)."""
    shown = {k: frames.decode(f, k) if frames.alive[k][f] else None for k in frames.maps}
    tokens = [f"{i + 1}:{d}" for i, d in enumerate(frames.probe)]
    present = presenting()
    fig = race_maps.maps(
        shown,
        tokens,
        names=names("training_race.short_"),
        dead_text=tr("training_race.dead"),
        marks={frames.chance: "1/n"},
        width_px=560,  # the column's width at 1280 px, on a desk and presenting
        font_px=20 if present else race_maps.FONT_PX,
        head_label=tr("training_race.head"),
        layer_head=layer_head(),
    )
    st.subheader(tr("training_race.maps_heading"))
    probe_line(frames)
    st.caption(tr("training_race.maps_at", t=int(frames.steps[f])))
    plot(fig, key, f"race_maps_{frames.cfg.task}_step{frames.steps[f]}")


def show(state: dict, f: int, live: bool = False) -> None:
    """The curves marked at frame f, its maps and the pattern scores up to it."""
    frames, t = state["frames"], int(state["frames"].steps[f])
    key = f"_{time.monotonic_ns()}" if live else ""  # a live redraw replaces its element
    history = race_results.history(state["records"])
    fig = charts.race(
        history,
        names=names(),
        x_title=tr("training_race.step"),
        titles=(tr("training_race.loss"), tr("training_race.accuracy")),
        mark=t,
    )
    plot(fig, "race" + key, f"race_{frames.cfg.task}_L{frames.cfg.L}")
    show_maps(frames, f, "race_maps" + key)
    if frames.count < 2:
        return
    st.subheader(tr("training_race.scores_heading"))
    short, best = names("training_race.short_"), {}
    for k in frames.scores:  # each model's highest-scoring head at this frame
        top = frames.best(f, k)
        best[k] = (
            tr("training_race.best_head", name=short[k], layer=top[0], head=top[1], score=top[2])
            if top
            else tr("training_race.best_dead", name=short[k])
        )
    st.markdown(tr("training_race.scores_now", t=t, chance=frames.chance, **best))
    n = frames.count
    fig = charts.scores(
        frames.steps[:n],
        {k: s[:n] for k, s in frames.scores.items()},
        names=short,
        x_title=tr("training_race.step"),
        y_title=tr("training_race.score_axis"),
        chance=(frames.chance, tr("training_race.uniform")),
        mark=t,
        layer_head=layer_head(),
    )
    st.caption(tr(f"training_race.scores_caption_{frames.cfg.task}"))
    plot(fig, "race_scores" + key, f"race_scores_{frames.cfg.task}")


@st.fragment
def replay(state: dict) -> None:
    """The step slider over the recorded frames, and what it shows; nothing is computed."""
    frames = state["frames"]
    recorded = frames.steps[: frames.count].tolist()
    if len(recorded) > 1:
        t = st.select_slider(tr("training_race.frame"), recorded, recorded[-1], key=RACE_FRAME)
    show(state, recorded.index(t) if len(recorded) > 1 else 0)


def run_race(cfg: race_config.Config) -> None:
    """Run the race ``cfg`` names, drawn as it goes (a heavy slot for each step), into the
    session's ``RACE`` state; the step slider starts again at the last frame."""
    st.session_state.pop(RACE_FRAME, None)
    bar, live = st.progress(0.0), st.empty()
    models, records, frames = {}, [], race_frames.Frames(cfg)
    state = st.session_state[RACE] = dict(cfg=cfg, records=records, frames=frames, done=False)
    due = start = time.monotonic()  # redraws take at most about a fifth of the race's time
    with closing(training_race.race(cfg, models, frames)) as steps_run:
        for rec in in_turn(steps_run):  # a heavy slot for each step
            records.append(rec)
            if rec.step % 10 == 0 or rec.step == cfg.steps:
                bar.progress(
                    rec.step / cfg.steps,
                    tr("training_race.progress", t=rec.step, steps=cfg.steps),
                )
            if time.monotonic() >= due and rec.step < cfg.steps:
                began = time.monotonic()
                with live.container():
                    show(state, frames.count - 1, live=True)
                st.session_state[RACE_POSITIONS] = race_results.positions(cfg, models)
                due = time.monotonic() + 4 * (time.monotonic() - began)
    st.session_state[RACE_POSITIONS] = race_results.positions(cfg, models)
    state["done"] = True
    if cfg.seconds >= TIMED_S:
        _pace[0] = (time.monotonic() - start) / cfg.seconds
    live.empty()


def results(cfg: race_config.Config) -> None:
    """The session's race, replayed (or, before one, the untrained maps), its summary and
    downloads; a note when it was run with other settings than ``cfg`` or stopped."""
    state = st.session_state.get(RACE)
    if not state or not state["records"]:
        frames = compute(training_race.initial, cfg)
        st.info(tr("training_race.press_start", secs=expected_seconds(cfg)))
        st.markdown(tr(f"training_race.expect_{cfg.task}"))
        show_maps(frames, 0, "race_maps")
    else:
        if state["cfg"] != cfg:
            st.warning(tr("training_race.old_result"))
        if not state["done"]:
            st.info(tr("training_race.stopped", t=state["records"][-1].step))
        replay(state)
        for norm, (loss, acc) in race_results.summary(state["records"]).items():
            key = "training_race.diverged" if math.isnan(loss) else "training_race.result"
            st.markdown("- " + tr(key, name=names()[norm], loss=loss, acc=acc))
        history = race_results.history(state["records"]).set_index("step")
        task = state["cfg"].task
        csv_button(history, f"race_{task}", "csv_race", label=tr("training_race.dl_history"))
        scores = partial(race_frames.score_table, state["frames"])  # built when clicked
        csv_button(scores, f"race_scores_{task}", "csv_scores", label=tr("training_race.dl_scores"))
        st.caption(tr("training_race.pe_link"))
