"""The training race page's right-hand side, drawn by pages/block/training_race.py: the
race run live, then replayed from the frames kept in session state (``replay`` of
``training_race_frames``, an ``st.fragment``: moving its step slider reruns only it and
computes nothing), with its summary and downloads; before any race, the untrained maps.
"""

from __future__ import annotations

import math
import time
from contextlib import closing
from functools import partial

import streamlit as st

from attnviz.lessons import training_race
from attnviz.lessons.training_race import config as race_config
from attnviz.lessons.training_race import frames as race_frames
from attnviz.lessons.training_race import results as race_results
from pages.block import training_race_frames
from ui.compute import compute, in_turn
from ui.export import csv_button
from ui.keys import RACE, RACE_FRAME, RACE_POSITIONS
from ui.language import tr

# this server's pace: its last finished race's wall time over race_config's estimate
# (drawing, and waiting for a turn while other races run, included); before any race, the
# drawing's share (run_race keeps it to about a fifth of the race's time). Only a race
# estimated at TIMED_S or more sets it: a shorter one is mostly the first drawing's time.
_pace = [1.25]
TIMED_S = 3.0


def expected_seconds(cfg: race_config.Config) -> int:
    """About how long the race ``cfg`` will take on this server, in whole seconds."""
    return max(1, round(cfg.seconds * _pace[0]))


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
                    training_race_frames.show(state, frames.count - 1, live=True)
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
        training_race_frames.show_maps(frames, 0, "race_maps")
    else:
        if state["cfg"] != cfg:
            st.warning(tr("training_race.old_result"))
        if not state["done"]:
            st.info(tr("training_race.stopped", t=state["records"][-1].step))
        training_race_frames.replay(state)
        summary = race_results.summary(state["records"]).items()
        st.markdown(  # one list, one element
            "\n".join(
                "- "
                + tr(
                    "training_race.diverged" if math.isnan(loss) else "training_race.result",
                    name=training_race_frames.names()[norm],
                    loss=loss,
                    acc=acc,
                )
                for norm, (loss, acc) in summary
            )
        )
        history = race_results.history(state["records"]).set_index("step")
        task = state["cfg"].task
        csv_button(history, f"race_{task}", "csv_race", label=tr("training_race.dl_history"))
        scores = partial(race_frames.score_table, state["frames"])  # built when clicked
        csv_button(scores, f"race_scores_{task}", "csv_scores", label=tr("training_race.dl_scores"))
        st.caption(tr("training_race.pe_link"))
