"""Gradient norms by depth at initialisation, post-LN vs pre-LN: Xiong et al. (2020), Fig. 3,
panel by panel beside the paper's directions, and the stream's length through the stack
(drawn by ``depth_gradients_views`` and ``depth_gradients_stream``)."""

import streamlit as st

import ui
from attnviz.lessons import depth_gradients
from attnviz.limits import MAX_LAYERS
from pages.block import depth_gradients_paper, depth_gradients_stream, depth_gradients_verdict
from pages.block import depth_gradients_views as views

WIDTHS = ["64", "128", "256", "512"]


def computing(f: float) -> str:
    return ui.tr("depth_gradients.computing", pct=100 * f)


ui.prose(ui.tr("depth_gradients.intro"), heading=ui.tr("depth_gradients.title"), level=1)
left, right = ui.split([1, 2])
with left:
    L = ui.slider("L", ui.tr("depth_gradients.L"), 1, MAX_LAYERS, depth_gradients.Config.L)
    D = int(ui.choice_slider("D", ui.tr("depth_gradients.D"), WIDTHS, "128"))
    seeds = ui.slider("seeds", ui.tr("depth_gradients.seeds"), 1, 5, 3)
    param = ui.select(
        "param",
        ui.tr("depth_gradients.param"),
        depth_gradients.PARAMS,
        "W_2",
        labels="depth_gradients.param_",
        radio=True,
    )
    loss = ui.select(
        "loss",
        ui.tr("depth_gradients.loss"),
        list(depth_gradients.LOSSES),
        "xent",
        labels="depth_gradients.loss_",
        radio=True,
    )
    x_scale = ui.select(
        "x",
        ui.tr("depth_gradients.x_scale"),
        list(depth_gradients.X_SCALES),
        "unit",
        labels="depth_gradients.x_",
        radio=True,
    )
    cfg = ui.config(depth_gradients.Config, L=L, D=D, seeds=seeds, x_scale=x_scale, loss=loss)
    if cfg.seeds_used < cfg.seeds:
        st.info(ui.tr("depth_gradients.seeds_capped", used=cfg.seeds_used, D=cfg.D, L=cfg.L))
names = {n: ui.tr(f"names.norm_{n}") for n in ("post", "pre", "none")}
with right:
    r = ui.compute_with_progress(depth_gradients.run, cfg, computing)
    t = ui.compute_with_progress(depth_gradients.trend, cfg.trend, computing)
    depth_gradients_verdict.verdict(cfg, depth_gradients.panels(r, t), t)
    views.panels(cfg, r, t, param, names)
    depth_gradients_paper.paper_shape(cfg, computing)
    depth_gradients_stream.stream(cfg, t, names)
with left:
    ui.prose(*map(ui.display, t.formulas))
    st.caption(ui.tr("depth_gradients.setup"))
