"""Training race (S14): post-LN vs pre-LN on copy / reverse / sort, live curves, stop button,
and every head's attention on one probe sequence, recorded during the race and replayed.

The replay (step slider, maps, pattern scores) is an ``st.fragment`` over the frames kept
in session state: moving the slider reruns only it and computes nothing.
"""

import math
import time
from contextlib import closing

import streamlit as st

import ui
from attnviz.charts import training_race as charts
from attnviz.lessons import race_frames, training_race
from attnviz.limits import MAX_SEED

RACE, FRAME = "race", "race_frame"  # session keys: the latest race, the step slider

st.title(ui.tr("training.title"))
st.markdown(ui.tr("training.intro", n=training_race.Config().n))
left, right = ui.split([1, 2])
with left:
    task = ui.select(
        "task",
        ui.tr("training.task"),
        training_race.TASKS,
        "reverse",
        labels="training.task_",
        radio=True,
    )
    L = ui.slider("L", ui.tr("training.L"), 1, training_race.MAX_RACE_LAYERS, 6)
    lr_exp = ui.slider("lr", ui.tr("training.lr_exp"), -4.0, -1.6, -2.0, step=0.1)
    lr = training_race.learning_rate(lr_exp)
    st.caption(ui.tr("training.lr_value", lr=lr))
    warmup = ui.toggle("warmup", ui.tr("training.warmup"), False)
    steps = ui.slider(
        "steps", ui.tr("training.steps"), 20, training_race.MAX_RACE_STEPS, 200, step=10
    )
    seed = ui.number("seed", ui.tr("training.seed"), 0, MAX_SEED, 0)
    fields = dict(task=task, L=L, lr=lr, warmup=warmup, steps=steps, seed=seed)
    cfg = ui.config(training_race.Config, **fields)
    for formula in training_race.race_formulas(cfg):
        st.latex(formula)
    start = st.button(ui.tr("training.start"), type="primary", key="race_start")
    st.button(ui.tr("training.stop"), key="race_stop")  # a click interrupts the running loop
names = {n: ui.tr(f"names.norm_{n}") for n in training_race.NORMS}
short = {n: ui.tr(f"training.short_{n}") for n in training_race.NORMS}
grid = dict(layer_label=ui.tr("training.layer"), head_label=ui.tr("training.head"))


def probe_line(frames: race_frames.Frames) -> None:
    target = frames.probe[frames.target.argmax(1)]  # the digit each output position needs
    digits = dict(tokens=" ".join(map(str, frames.probe)), target=" ".join(map(str, target)))
    name = ui.tr(f"training.task_{frames.cfg.task}")
    st.markdown(ui.tr("training.probe", task=name, **digits))
    st.caption(ui.tr("training.maps_caption", chance=frames.chance))


def show_maps(frames: race_frames.Frames, f: int, key: str) -> None:
    """Frame f's maps of both models (None where a model had diverged)."""
    shown = {k: frames.decode(f, k) if frames.alive[k][f] else None for k in frames.maps}
    tokens = [f"{i + 1}:{d}" for i, d in enumerate(frames.probe)]
    dead, width = ui.tr("training.dead"), 760 if ui.presenting() else 560
    fig = charts.maps(
        shown,
        tokens,
        names=short,
        dead_text=dead,
        marks={frames.chance: "1/n"},
        width_px=width,
        **grid,
    )
    st.subheader(ui.tr("training.maps_heading"))
    probe_line(frames)
    st.caption(ui.tr("training.maps_at", t=int(frames.steps[f])))
    ui.plot(fig, key, f"race_maps_{frames.cfg.task}_step{frames.steps[f]}")


def show(state: dict, f: int, live: bool = False) -> None:
    """The curves marked at frame f, its maps and the pattern scores up to it."""
    frames, t = state["frames"], int(state["frames"].steps[f])
    key = f"_{time.monotonic_ns()}" if live else ""  # a live redraw replaces its element
    history = training_race.history(state["records"])
    fig = charts.race(
        history,
        names=names,
        x_title=ui.tr("training.step"),
        titles=(ui.tr("training.loss"), ui.tr("training.accuracy")),
        mark=t,
    )
    ui.plot(fig, "race" + key, f"race_{frames.cfg.task}_L{frames.cfg.L}")
    show_maps(frames, f, "race_maps" + key)
    if frames.count < 2:
        return
    st.subheader(ui.tr("training.scores_heading"))
    best = {}
    for k in frames.scores:  # each model's highest-scoring head at this frame
        top = frames.best(f, k)
        best[k] = (
            ui.tr("training.best_head", name=short[k], layer=top[0], head=top[1], score=top[2])
            if top
            else ui.tr("training.best_dead", name=short[k])
        )
    st.markdown(ui.tr("training.scores_now", t=t, chance=frames.chance, **best))
    n = frames.count
    fig = charts.scores(
        frames.steps[:n],
        {k: s[:n] for k, s in frames.scores.items()},
        names=short,
        x_title=ui.tr("training.step"),
        y_title=ui.tr("training.score_axis"),
        chance=(frames.chance, ui.tr("training.uniform")),
        mark=t,
        **grid,
    )
    st.caption(ui.tr(f"training.scores_caption_{frames.cfg.task}"))
    ui.plot(fig, "race_scores" + key, f"race_scores_{frames.cfg.task}")


@st.fragment
def replay(state: dict) -> None:
    """The step slider over the recorded frames, and what it shows; nothing is computed."""
    frames = state["frames"]
    recorded = frames.steps[: frames.count].tolist()
    if len(recorded) > 1:
        t = st.select_slider(ui.tr("training.frame"), recorded, recorded[-1], key=FRAME)
    show(state, recorded.index(t) if len(recorded) > 1 else 0)


with right:
    if start:
        st.session_state.pop(FRAME, None)
        bar, live = st.progress(0.0), st.empty()
        models, records, frames = {}, [], race_frames.Frames(cfg)
        state = st.session_state[RACE] = dict(cfg=cfg, records=records, frames=frames, done=False)
        due = 0.0  # redraws take at most about a fifth of the race's time
        with closing(training_race.race(cfg, models, frames)) as steps_run:
            for rec in ui.in_turn(steps_run):  # a heavy slot for each step
                records.append(rec)
                if rec.step % 10 == 0 or rec.step == cfg.steps:
                    bar.progress(
                        rec.step / cfg.steps,
                        ui.tr("training.progress", t=rec.step, steps=cfg.steps),
                    )
                if time.monotonic() >= due and rec.step < cfg.steps:
                    began = time.monotonic()
                    with live.container():
                        show(state, frames.count - 1, live=True)
                    training_race.keep_positions(
                        st.session_state, training_race.positions(cfg, models)
                    )
                    due = time.monotonic() + 4 * (time.monotonic() - began)
        training_race.keep_positions(st.session_state, training_race.positions(cfg, models))
        state["done"] = True
        live.empty()
    state = st.session_state.get(RACE)
    if not state or not state["records"]:
        frames = ui.compute(training_race.initial, cfg)
        st.info(ui.tr("training.press_start", secs=cfg.seconds))
        st.markdown(ui.tr(f"training.expect_{cfg.task}"))
        show_maps(frames, 0, "race_maps")
    else:
        if state["cfg"] != cfg:
            st.warning(ui.tr("training.old_result"))
        if not state["done"]:
            st.info(ui.tr("training.stopped", t=state["records"][-1].step))
        replay(state)
        for norm, (loss, acc) in training_race.summary(state["records"]).items():
            key = "training.diverged" if math.isnan(loss) else "training.result"
            st.markdown("- " + ui.tr(key, name=names[norm], loss=loss, acc=acc))
        history = training_race.history(state["records"]).set_index("step")
        task = state["cfg"].task
        ui.csv_button(history, f"race_{task}", "csv_race", label=ui.tr("training.dl_history"))
        scores = lambda: race_frames.score_table(state["frames"])  # noqa: E731
        ui.csv_button(
            scores, f"race_scores_{task}", "csv_scores", label=ui.tr("training.dl_scores")
        )
        st.caption(ui.tr("training.pe_link"))
    with st.expander(ui.tr("training.why_heading")):
        st.markdown(ui.tr("training.why"))
