"""The depth page's verdict: each of Xiong et al.'s four panels, its direction in the paper
and here, and why a panel differs where the reason is known."""

from __future__ import annotations

import pandas as pd
import streamlit as st

import ui
from attnviz.lessons.depth_gradients import Config, Panel, TrendResult

# why a panel differs from the paper's, where the reason is known: (panel, measured direction)
# → the key of the sentence shown under the table
WHY = {
    ("a", "flat"): "why_a",
    ("a", "falls"): "why_a",
    ("b", "falls"): "why_b_falls",
    ("c", "rises"): "why_c_rises",
    ("d", "flat"): "why_d_flat",
}


def verdict(cfg: Config, measured: list[Panel], t: TrendResult) -> None:
    """Each panel's direction in the paper and here (W_2, as in the paper), and why a panel
    differs where the reason is known."""
    tr = ui.tr
    st.subheader(tr("depth_gradients.verdict"))
    if cfg.L == 1:  # one layer: the per-layer panels have no direction
        measured = [p for p in measured if p.key in "cd"]

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

    ui.number_table(table, 2, same=cfg)
    st.caption(tr("depth_gradients.ratios_are", L=cfg.L))
    for p in measured:
        why = WHY.get((p.key, p.measured))
        if why:
            st.markdown(tr(f"depth_gradients.{why}", ratio=p.ratio, growth=t.growth["pre"]))
