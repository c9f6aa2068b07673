"""The depth page's section on a model of Xiong et al.'s shape: panels (a) and (b) measured on
an encoder–decoder (lessons.depth_paper_shape), on request, as it takes seconds."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

import ui
from attnviz.charts import depth_gradients as charts
from attnviz.lessons import depth_paper_shape
from attnviz.lessons.depth_gradients import Config


def paper_shape(cfg: Config, computing: Callable[[float], str]) -> None:
    """Each layer's ‖∂ℒ/∂W_2‖ of the encoder, the decoder and the decoder without its
    cross-attention, post-LN and pre-LN on one y-axis from 0; the ratios read by the page's
    rule, and what the cross-attention's part in (a) is as far as it is measured."""
    tr = ui.tr
    ui.prose(tr("depth_gradients.shape_intro"), heading=tr("depth_gradients.shape_title"))
    if not ui.toggle("shape", tr("depth_gradients.shape_toggle")):
        return
    pcfg = ui.config(depth_paper_shape.Config, seeds=cfg.seeds_used)
    r = ui.compute_with_progress(depth_paper_shape.run, pcfg, computing)
    names = {
        line: tr(f"depth_gradients.line_{line}") for line in ("encoder", "decoder", "decoder_alone")
    }
    top = charts.shared_top(r.spread)
    for column, norm in zip(st.columns(2), ("post", "pre"), strict=True):
        part = r.spread[r.spread.norm == norm].drop(columns="norm").rename(columns={"line": "norm"})
        with column:
            ui.plot(
                lambda part=part, norm=norm: charts.band(
                    part,
                    "layer",
                    names=names,
                    title=tr(
                        "depth_gradients.shape_panel", norm=tr(f"depth_gradients.short_{norm}")
                    ),
                    x_title=tr("depth_gradients.layer"),
                    y_title=tr("depth_gradients.grad"),
                    y_max=top,
                    height=360,
                    colours=charts.PART_COLOURS,
                ),
                f"shape_{norm}",
                f"grad_paper_shape_{norm}",
            )
    words = {
        f"{norm}_{line}": tr(f"depth_gradients.dir_{r.direction(norm, line)}")
        for norm, lines in r.ratios.items()
        for line in lines
    }
    ratios = {
        f"{norm}_{line}_x": v for norm, lines in r.ratios.items() for line, v in lines.items()
    }
    cross = (  # most of the rise goes without the cross-attention
        tr(
            "depth_gradients.shape_cross",
            with_x=r.ratios["post"]["decoder"],
            alone_x=r.ratios["post"]["decoder_alone"],
            share=r.cross_share,
        )
        if r.cross_share >= 0.5
        else ""
    )
    b_same = r.direction("pre", "decoder") == "same"
    ui.prose(
        tr("depth_gradients.shape_ratios", seeds=pcfg.seeds, D=pcfg.D, **ratios, **words),
        cross,
        tr("depth_gradients.shape_b_same" if b_same else "depth_gradients.shape_b_differs"),
    )
