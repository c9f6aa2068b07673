"""Gradient norms by depth at initialisation, post-LN vs pre-LN (Xiong et al. 2020)."""

import streamlit as st

import ui
from attnviz.charts import depth_gradients as charts
from attnviz.lessons import depth_gradients
from attnviz.limits import MAX_LAYERS

WIDTHS = ["64", "128", "256", "512"]


def subscripted(name: str) -> str:
    """A matrix's name for a Plotly title: W_2 → W<sub>2</sub> (Plotly shows no LaTeX)."""
    base, _, index = name.partition("_")
    return f"{base}<sub>{index}</sub>" if index else base


def computing(f: float) -> str:
    return ui.tr("depth_gradients.computing", pct=100 * f)


st.title(ui.tr("depth_gradients.title"))
st.markdown(ui.tr("depth_gradients.intro"))
left, right = ui.split([1, 2])
with left:
    L = ui.slider("L", ui.tr("depth_gradients.L"), 1, MAX_LAYERS, 12)
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
    x_scale = ui.select(
        "x",
        ui.tr("depth_gradients.x_scale"),
        list(depth_gradients.X_SCALES),
        "unit",
        labels="depth_gradients.x_",
        radio=True,
    )
    cfg = ui.config(depth_gradients.Config, L=L, D=D, seeds=seeds, x_scale=x_scale)
    if cfg.seeds_used < cfg.seeds:
        st.info(ui.tr("depth_gradients.seeds_capped", used=cfg.seeds_used, D=cfg.D, L=cfg.L))
names = {n: ui.tr(f"names.norm_{n}") for n in depth_gradients.NORMS}
with right:
    r = ui.compute_with_progress(depth_gradients.run, cfg, computing)
    ui.plot(
        charts.band(
            r.spread[param],
            "layer",
            names=names,
            title=ui.tr(
                "depth_gradients.by_layer"
                if cfg.seeds_used > 1
                else "depth_gradients.by_layer_one",
                param=subscripted(param),
                L=cfg.L,
                seeds=cfg.seeds_used,
            ),
            x_title=ui.tr("depth_gradients.layer"),
            y_title=ui.tr("depth_gradients.grad"),
        ),
        "by_layer",
        f"grad_by_layer_L{cfg.L}_D{cfg.D}",
    )
    if cfg.L > 1:
        st.markdown(
            ui.tr("depth_gradients.per_layer", L=cfg.L, param=param, **r.last_over_first[param])
        )
        st.caption(ui.tr(f"depth_gradients.why_{cfg.x_scale}"))
    ui.csv_button(
        r.table.set_index("norm"),
        f"grad_by_layer_L{cfg.L}_D{cfg.D}",
        "csv_layers",
        label=ui.tr("depth_gradients.dl_layers", L=cfg.L),
    )
    t = ui.compute_with_progress(depth_gradients.trend, cfg.trend, computing)
    ui.plot(
        charts.band(
            t.spread,
            "L",
            names=names,
            title=ui.tr("depth_gradients.trend"),
            log=True,
            x_title=ui.tr("depth_gradients.depth"),
            y_title=ui.tr("depth_gradients.grad"),
            reference=(*t.reference, ui.tr("depth_gradients.reference")),
        ),
        "trend",
        f"grad_trend_D{cfg.D}",
    )
    lo, hi = depth_gradients.RATIO_DEPTHS
    st.markdown(ui.tr("depth_gradients.ratio", lo=lo, hi=hi, **t.ratios))
    trend_csv = ui.tr("depth_gradients.dl_trend")
    ui.csv_button(t.table.set_index("norm"), f"grad_trend_D{cfg.D}", "csv_trend", label=trend_csv)
with left:
    for formula in t.formulas:
        st.latex(formula)
    st.caption(ui.tr("depth_gradients.setup"))
