"""Training race (S14): post-LN vs pre-LN on copy / reverse / sort, live curves, stop button."""

import math
import time

import pandas as pd
import streamlit as st

import ui
from attnviz.charts import training_race as charts
from attnviz.lessons import training_race
from attnviz.limits import MAX_SEED

st.title(ui.tr("training.title"))
st.markdown(ui.tr("training.intro", n=training_race.Config().n))
left, right = st.columns([1, 2])
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
    for formula in training_race.FORMULAS:
        st.latex(formula)
    start = st.button(ui.tr("training.start"), type="primary", key="race_start")
    st.button(ui.tr("training.stop"), key="race_stop")  # a click interrupts the running loop
    fields = dict(task=task, L=L, lr=lr, warmup=warmup, steps=steps, seed=seed)
    cfg = ui.config(training_race.Config, **fields)
names = {n: ui.tr(f"names.norm_{n}") for n in training_race.NORMS}


def draw(history: pd.DataFrame, where) -> None:
    fig = charts.race(
        history,
        names=names,
        x_title=ui.tr("training.step"),
        titles=(ui.tr("training.loss"), ui.tr("training.accuracy")),
    )
    with where.container():
        ui.plot(fig, f"race_{time.monotonic_ns()}" if start else "race", f"race_{task}_L{L}")


with right:
    chart = st.empty()
    if start:
        bar, models, records = st.progress(0.0), {}, []
        state = st.session_state["race"] = {"cfg": cfg, "records": records, "done": False}
        for rec in training_race.race(cfg, models):
            records.append(rec)
            if rec.step % 10 == 0 or rec.step == cfg.steps:
                bar.progress(
                    rec.step / cfg.steps, ui.tr("training.progress", t=rec.step, steps=cfg.steps)
                )
                draw(training_race.history(records), chart)
                training_race.keep_positions(st.session_state, training_race.positions(cfg, models))
        state["done"] = True
    state = st.session_state.get("race")
    if not state or not state["records"]:
        st.info(ui.tr("training.press_start", secs=cfg.seconds))
        st.stop()
    if not start:
        draw(training_race.history(state["records"]), chart)
    if state["cfg"] != cfg:
        st.warning(ui.tr("training.old_result"))
    if not state["done"]:
        st.info(ui.tr("training.stopped", t=state["records"][-1].step))
    for norm, (loss, acc) in training_race.summary(state["records"]).items():
        key = "training.diverged" if math.isnan(loss) else "training.result"
        st.markdown("- " + ui.tr(key, name=names[norm], loss=loss, acc=acc))
    ui.csv_button(
        training_race.history(state["records"]).set_index("step"),
        f"race_{state['cfg'].task}",
        "csv_race",
    )
    st.caption(ui.tr("training.pe_link"))
