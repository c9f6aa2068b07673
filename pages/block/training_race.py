"""Training race (S14): post-LN vs pre-LN on copy / reverse / sort, live curves, stop button."""

import time

import pandas as pd
import streamlit as st

import ui
from attnviz.charts import block as charts
from attnviz.lessons import training
from attnviz.lessons.block_latex import RACE
from attnviz.limits import MAX_SEED

st.title(ui.tr("training.title"))
st.markdown(ui.tr("training.intro", n=training.RaceConfig().n))
left, right = st.columns([1, 2])
with left:
    task = ui.select(
        "task",
        ui.tr("training.task"),
        training.TASKS,
        "reverse",
        labels="training.task_",
        radio=True,
    )
    L = ui.slider("L", ui.tr("training.L"), 1, training.MAX_RACE_LAYERS, 6)
    lr_exp = ui.slider("lr", ui.tr("training.lr_exp"), -4.0, -1.6, -2.0, step=0.1)
    lr = float(f"{10**lr_exp:.3g}")
    st.caption(ui.tr("training.lr_value", lr=lr))
    warmup = ui.toggle("warmup", ui.tr("training.warmup"), False)
    steps = ui.slider("steps", ui.tr("training.steps"), 20, training.MAX_RACE_STEPS, 200, step=10)
    seed = ui.number("seed", ui.tr("training.seed"), 0, MAX_SEED, 0)
    st.latex(RACE)
    start = st.button(ui.tr("training.start"), type="primary", key="race_start")
    st.button(ui.tr("training.stop"), key="race_stop")  # a click interrupts the running loop
try:
    cfg = training.RaceConfig(task=task, L=L, lr=lr, warmup=warmup, steps=steps, seed=seed)
except ValueError as err:
    ui.error_box(err)
    st.stop()
names = {n: ui.tr(f"names.norm_{n}") for n in training.NORMS}


def draw(history: pd.DataFrame, where) -> None:
    fig = charts.race(
        history,
        names=names,
        x_title=ui.tr("training.step"),
        titles=(ui.tr("training.loss"), ui.tr("training.accuracy")),
    )
    with where.container():
        ui.plot(fig, f"race_{time.monotonic_ns()}" if start else "race", f"race_{task}_L{L}")


def frame(records) -> pd.DataFrame:
    return pd.DataFrame(
        [(r.step, n, r.loss[n], r.acc[n]) for r in records for n in training.NORMS],
        columns=["step", "norm", "loss", "accuracy"],
    )


with right:
    chart = st.empty()
    if start:
        bar, models, records, t0 = st.progress(0.0), {}, [], time.monotonic()
        state = st.session_state["race"] = {"cfg": cfg, "records": records, "done": False}
        for rec in training.race(cfg, models):
            records.append(rec)
            if rec.step % 10 == 0 or rec.step == cfg.steps:
                bar.progress(
                    rec.step / cfg.steps, ui.tr("training.progress", t=rec.step, steps=cfg.steps)
                )
                draw(frame(records), chart)
                st.session_state["race_pe"] = {"cfg": cfg, **training.positions(models)}
        state["done"] = True
        state["seconds"] = time.monotonic() - t0
    state = st.session_state.get("race")
    if not state or not state["records"]:
        st.info(ui.tr("training.press_start", secs=max(1, round(steps * L * 0.005))))
        st.stop()
    if not start:
        draw(frame(state["records"]), chart)
    if state["cfg"] != cfg:
        st.warning(ui.tr("training.old_result"))
    if not state["done"]:
        st.info(ui.tr("training.stopped", t=state["records"][-1].step))
    for norm, (loss, acc) in training.summary(state["records"]).items():
        key = "training.diverged" if loss != loss else "training.result"
        st.markdown("- " + ui.tr(key, name=names[norm], loss=loss, acc=acc))
    ui.csv_button(
        frame(state["records"]).set_index("step"), f"race_{state['cfg'].task}", "csv_race"
    )
    st.caption(ui.tr("training.pe_link"))
