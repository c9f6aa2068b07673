"""Training race (S14): post-LN vs pre-LN on copy / reverse / sort, live curves, stop button,
and every head's attention on one probe sequence, recorded during the race and replayed.

The race and its replay (step slider, maps, pattern scores: an ``st.fragment`` over the
frames kept in session state) are drawn by ``training_race_views`` beside it, each frame by
``training_race_frames``.
"""

import streamlit as st

import ui
from attnviz.lessons import training_race
from attnviz.lessons.training_race import config as race_config
from attnviz.limits import MAX_SEED
from pages.block import training_race_views as views

intro = ui.tr("training_race.intro", n=race_config.Config().n)
ui.prose(intro, heading=ui.tr("training_race.title"), level=1)
left, right = ui.split([1, 2])
with left:
    task = ui.select(
        "task",
        ui.tr("training_race.task"),
        race_config.TASKS,
        "reverse",
        labels="training_race.task_",
        radio=True,
    )
    L = ui.slider("L", ui.tr("training_race.L"), 1, race_config.MAX_RACE_LAYERS, 6)
    lr_exp = ui.slider("lr", ui.tr("training_race.lr_exp"), -4.0, -1.6, -2.0, step=0.1)
    lr = race_config.learning_rate(lr_exp)
    st.caption(ui.tr("training_race.lr_value", lr=lr))
    warmup = ui.toggle("warmup", ui.tr("training_race.warmup"), False)
    steps = ui.slider(
        "steps", ui.tr("training_race.steps"), 20, race_config.MAX_RACE_STEPS, 200, step=10
    )
    seed = ui.number("seed", ui.tr("training_race.seed"), 0, MAX_SEED, 0)
    fields = dict(task=task, L=L, lr=lr, warmup=warmup, steps=steps, seed=seed)
    cfg = ui.config(race_config.Config, **fields)
    ui.prose(*map(ui.display, training_race.race_formulas(cfg)))
    start = st.button(ui.tr("training_race.start"), type="primary", key="race_start")
    st.button(ui.tr("training_race.stop"), key="race_stop")  # a click interrupts the running loop
with right:
    if start:
        views.run_race(cfg)
    views.results(cfg)
    with st.expander(ui.tr("training_race.why_heading")):
        st.markdown(ui.tr("training_race.why"))
