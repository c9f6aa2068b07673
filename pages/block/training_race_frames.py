"""The training race's recorded frames drawn, for ``training_race_views``: one frame's curves
marked at its step, both models' maps of every head on the probe sequence and the pattern
scores up to it, live during a race or replayed (``replay``, an ``st.fragment`` over the
frames kept in session state: moving its step slider reruns only it and computes nothing).
"""

from __future__ import annotations

import time

import streamlit as st

from attnviz.charts import race_maps
from attnviz.charts import training_race as charts
from attnviz.lessons import training_race
from attnviz.lessons.training_race import frames as race_frames
from attnviz.lessons.training_race import results as race_results
from ui.fingerprint import shared
from ui.keys import RACE_FRAME
from ui.language import tr
from ui.layout import presenting, prose
from ui.plots import plot


def names(prefix: str = "names.norm_") -> dict[str, str]:
    """Each model's name in this run's language (``training.short_``: the short one)."""
    return {n: tr(f"{prefix}{n}") for n in training_race.NORMS}


def layer_head() -> str:
    """A head's name with its layer, as the real model's grid names it: "Layer {l}, head {h}"
    (「層 {l}・ヘッド {h}」)."""
    return tr("names.layer_head", l="{l}", h="{h}")


def probe_line(frames: race_frames.Frames) -> str:
    """The probe sequence the maps read and the output its task asks for."""
    target = frames.probe[frames.target.argmax(1)]  # the digit each output position needs
    digits = dict(tokens=" ".join(map(str, frames.probe)), target=" ".join(map(str, target)))
    name = tr(f"training_race.task_{frames.cfg.task}")
    return tr("training_race.probe", task=name, **digits)


def show_maps(frames: race_frames.Frames, f: int, key: str) -> None:
    """Frame f's maps of both models (None where a model had diverged); drawn once per
    process where the frames are a shared result (ui.compute), else every time: a race's
    own frames, still growing, are this session's."""
    tokens = [f"{i + 1}:{d}" for i, d in enumerate(frames.probe)]
    present = presenting()

    def fig():
        shown = {k: frames.decode(f, k) if frames.alive[k][f] else None for k in frames.maps}
        return race_maps.maps(
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

    prose(probe_line(frames), heading=tr("training_race.maps_heading"))
    prose(
        tr("training_race.maps_caption", chance=frames.chance),
        tr("training_race.maps_at", t=int(frames.steps[f])),
        small=True,
    )
    plot(
        fig if shared(frames) else fig(), key, f"race_maps_{frames.cfg.task}_step{frames.steps[f]}"
    )


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
    short, best = names("training_race.short_"), {}
    for k in frames.scores:  # each model's highest-scoring head at this frame
        top = frames.best(f, k)
        best[k] = (
            tr("training_race.best_head", name=short[k], layer=top[0], head=top[1], score=top[2])
            if top
            else tr("training_race.best_dead", name=short[k])
        )
    now = tr("training_race.scores_now", t=t, chance=frames.chance, **best)
    prose(now, heading=tr("training_race.scores_heading"))
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
