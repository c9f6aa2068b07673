"""The depth page's verdict, above the panels: how many of Xiong et al.'s four panels go the
paper's way here, each panel's direction in the paper and here, the rule that names a
direction, and why a panel differs as far as a measurement shows it."""

from __future__ import annotations

import pandas as pd
import streamlit as st

import ui
from attnviz.lessons import depth_gradients
from attnviz.lessons.depth_gradients import Config, Panel, TrendResult

# the sentence shown where a panel differs from the paper's: (panel, measured direction) → key
WHY = {
    ("a", "same"): "why_a",
    ("a", "falls"): "why_a",
    ("b", "falls"): "why_b_falls",
    ("c", "rises"): "why_c_rises",
    ("d", "same"): "why_d_same",
}


def verdict(cfg: Config, measured: list[Panel], t: TrendResult) -> None:
    """The summary, each panel's direction in the paper and here (W_2, as in the paper), and
    why a panel differs where a measurement says."""
    tr = ui.tr
    if cfg.L == 1:  # one layer: the per-layer panels have no direction
        measured = [p for p in measured if p.key in "cd"]
    same = [f"({p.key})" for p in measured if p.agrees]
    ui.prose(
        tr(
            "depth_gradients.summary",
            n=len(same),
            of=len(measured),
            which=", ".join(same) if same else tr("depth_gradients.none_agree"),
            loss=tr(f"depth_gradients.loss_{cfg.loss}_short"),
        ),
        heading=tr("depth_gradients.verdict"),
    )

    def table() -> pd.DataFrame:  # made once per process for cfg (the panels come from it)
        rows = {
            tr("depth_gradients.col_panel"): [
                tr(f"depth_gradients.what_{p.key}") for p in measured
            ],
            tr("depth_gradients.col_paper"): [
                tr(f"depth_gradients.dir_{p.paper}") for p in measured
            ],
            tr("depth_gradients.col_here"): [
                tr(
                    "depth_gradients.here",
                    ratio=p.ratio,
                    dir=tr(f"depth_gradients.dir_{p.measured}"),
                )
                for p in measured
            ],
            tr("depth_gradients.col_agrees"): [
                tr("depth_gradients.agrees" if p.agrees else "depth_gradients.differs")
                for p in measured
            ],
        }
        return pd.DataFrame(rows).set_index(tr("depth_gradients.col_panel"))

    ui.number_table(table, 2)
    band = depth_gradients.SAME_WITHIN
    st.caption(tr("depth_gradients.ratios_are", L=cfg.L, lo=1 / band, hi=band))
    whys = [(p, WHY.get((p.key, p.measured))) for p in measured]
    ui.prose(
        *(tr(f"depth_gradients.{w}", ratio=p.ratio, growth=t.growth["pre"]) for p, w in whys if w)
    )
