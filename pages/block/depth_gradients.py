"""Gradient norms by depth at initialisation, post-LN vs pre-LN (Xiong et al. 2020)."""

import numpy as np
import streamlit as st

import ui
from attnviz.charts import block as charts
from attnviz.lessons import depth
from attnviz.lessons.block_latex import GRAD_SCALE
from attnviz.limits import MAX_LAYERS

grads = st.cache_data(max_entries=512, show_spinner=False)(depth.layer_gradients)


def per_layer(L, D, seeds, progress):
    return depth.by_layer(L, D, seeds, progress, grads=grads)


def trend(D, seeds, progress):
    return depth.last_layer_trend(D, seeds, progress=progress, grads=grads)


def progress_bar():
    bar = st.progress(0.0, ui.tr("depth.computing", pct=0))
    return bar, lambda f: bar.progress(f, ui.tr("depth.computing", pct=100 * f))


st.title(ui.tr("depth.title"))
st.markdown(ui.tr("depth.intro"))
left, right = st.columns([1, 2])
with left:
    L = ui.slider("L", ui.tr("depth.L"), 1, MAX_LAYERS, 12)
    D = int(ui.select("D", ui.tr("depth.D"), ["64", "128", "256", "512"], "128"))
    seeds = ui.slider("seeds", ui.tr("depth.seeds"), 1, 5, 3)
    param = ui.select("param", ui.tr("depth.param"), depth.PARAMS, "W_2", radio=True)
    st.latex(GRAD_SCALE)
    st.caption(ui.tr("depth.setup"))
names = {n: ui.tr(f"names.norm_{n}") for n in depth.NORMS}
with right:
    bar, tick = progress_bar()
    layers = per_layer(L, D, seeds, tick)
    bar.empty()
    stats = depth.spread(layers, "layer", param)
    title = ui.tr("depth.by_layer", param=param, L=L, seeds=seeds)
    ui.plot(
        charts.band(
            stats,
            "layer",
            names=names,
            title=title,
            x_title=ui.tr("depth.layer"),
            y_title=ui.tr("depth.grad"),
        ),
        "by_layer",
        f"grad_by_layer_L{L}_D{D}",
    )
    ui.csv_button(layers.set_index("norm"), f"grad_by_layer_L{L}_D{D}", "csv_layers")
    bar, tick = progress_bar()
    last = trend(D, seeds, tick)
    bar.empty()
    t = depth.spread(last, "L", "W_2")
    pre = t[t.norm == "pre"].set_index("L")["mean"]
    post = t[t.norm == "post"].set_index("L")["mean"]
    Ls = np.array(depth.TREND_DEPTHS, dtype=float)
    ref = (Ls, pre.iloc[0] * np.sqrt(Ls[0] / Ls), ui.tr("depth.reference"))
    ui.plot(
        charts.band(
            t,
            "L",
            names=names,
            title=ui.tr("depth.trend"),
            log=True,
            x_title=ui.tr("depth.depth"),
            y_title=ui.tr("depth.grad"),
            reference=ref,
        ),
        "trend",
        f"grad_trend_D{D}",
    )
    lo, hi = 3, 24
    st.markdown(
        ui.tr(
            "depth.ratio",
            lo=lo,
            hi=hi,
            post=post[hi] / post[lo],
            pre=pre[hi] / pre[lo],
            ref=np.sqrt(lo / hi),
        )
    )
    ui.csv_button(last.set_index("norm"), f"grad_trend_D{D}", "csv_trend")
