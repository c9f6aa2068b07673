"""The depth page's panels: Xiong et al.'s four, and what each shows beside the paper's."""

from __future__ import annotations

import streamlit as st

import ui
from attnviz.charts import depth_gradients as charts
from attnviz.lessons import depth_gradients
from attnviz.lessons.depth_gradients import Config, Result, TrendResult


def subscripted(name: str) -> str:
    """A matrix's name for a Plotly title: W_2 → W<sub>2</sub> (Plotly shows no LaTeX)."""
    base, _, index = name.partition("_")
    return f"{base}<sub>{index}</sub>" if index else base


def panels(cfg: Config, r: Result, t: TrendResult, param: str, names: dict[str, str]) -> None:
    """(a), (b): each layer's gradient of ``param``, post-LN and pre-LN; (c), (d): the last
    layer's W_2 against L, with c/√L fitted where it fits; each pair on one y-axis from 0;
    each drawn once per process for what it shows (ui.plot): (a) and (b) for the config and
    ``param``, (c) and (d) for the trend's config, which a change of L leaves as it is."""
    for row in (("a", "post"), ("b", "pre")), (("c", "post"), ("d", "pre")):
        for column, (key, norm) in zip(st.columns(2), row, strict=True):
            with column:
                if key in "ab":
                    name = f"grad_by_layer_{norm}_L{cfg.L}_D{cfg.D}"
                else:
                    name = f"grad_trend_{norm}_D{cfg.D}"
                ui.plot(
                    lambda key=key, norm=norm: _panel(cfg, r, t, param, names, key, norm),
                    f"panel_{key}",
                    name,
                )
    tr = ui.tr
    spread = "depth_gradients.spread" if cfg.seeds_used > 1 else "depth_gradients.spread_one"
    st.caption(tr(spread, seeds=cfg.seeds_used))
    per_layer = (
        tr("depth_gradients.per_layer", L=cfg.L, param=param, **r.last_over_first[param])
        if cfg.L > 1
        else ""
    )
    lo, hi = depth_gradients.RATIO_DEPTHS
    fits = []
    for norm, fit in t.fits.items():  # R² is given where the line is drawn; below 0 it means little
        key = "fit_drawn" if fit.fits else "fit_not_drawn"
        short = tr(f"depth_gradients.short_{norm}")
        fits.append(tr(f"depth_gradients.{key}", norm=short, r2=fit.r2, min=depth_gradients.MIN_R2))
    ui.prose(per_layer, tr("depth_gradients.ratio", lo=lo, hi=hi, **t.ratios), *fits)
    ui.csv_button(  # the tables built when their buttons are clicked
        lambda: r.table.set_index("norm"),
        f"grad_by_layer_L{cfg.L}_D{cfg.D}",
        "csv_layers",
        label=tr("depth_gradients.dl_layers", L=cfg.L),
    )
    label = tr("depth_gradients.dl_trend")
    ui.csv_button(
        lambda: t.table.set_index("norm"), f"grad_trend_D{cfg.D}", "csv_trend", label=label
    )


def _panel(
    cfg: Config,
    r: Result,
    t: TrendResult,
    param: str,
    names: dict[str, str],
    key: str,
    norm: str,
):
    """Panel ``key`` (a–d) of :func:`panels`, for the placement ``norm``."""
    tr = ui.tr
    short = tr(f"depth_gradients.short_{norm}")
    if key in "ab":  # each layer of the depth-L stack
        stats, x, log_x, reference = r.spread[param], "layer", False, None
        top = charts.shared_top(stats)
        p = subscripted(param)
        title = tr("depth_gradients.panel_layer", panel=key, norm=short, param=p, L=cfg.L)
        x_title = tr("depth_gradients.layer")
    else:  # the last layer against L, beside c/√L where that fits
        stats, x, log_x = t.spread, "L", True
        drawn = [f for f in t.fits.values() if f.fits]
        top = charts.shared_top(stats, extra=tuple(f.value for f in drawn))
        fit = t.fits[norm]
        label = tr("depth_gradients.reference_r2", r2=fit.r2)
        reference = (fit.L, fit.value, label) if fit.fits else None
        title = tr("depth_gradients.panel_depth", panel=key, norm=short)
        x_title = tr("depth_gradients.depth")
    fig = charts.band(
        stats[stats.norm == norm],
        x,
        names=names,
        title=title,
        log_x=log_x,
        y_max=top,  # one scale for the pair, from 0
        x_title=x_title,
        y_title=tr("depth_gradients.grad"),
        reference=reference,
        height=340,
    )
    if reference is None:  # one line: its name is the panel's title
        fig.update_layout(showlegend=False)
    return fig
