"""The depth page's last figure: the stream's length after every block of a 24-block stack,
post-LN, pre-LN and no LN, measured in the trend's pass."""

from __future__ import annotations

import math

import streamlit as st

import ui
from attnviz.charts import depth_gradients as charts
from attnviz.lessons.depth_gradients import Config, TrendResult


def stream(cfg: Config, t: TrendResult, names: dict[str, str]) -> None:
    """The stream's length after each block of a 24-block stack, post, pre and no LN."""
    tr = ui.tr
    st.subheader(tr("depth_gradients.stream_title"))
    ui.plot(
        lambda: charts.band(
            t.length_spread,
            "block",
            names=names,
            title=tr("depth_gradients.stream_chart", D=cfg.D),
            x_title=tr("depth_gradients.block"),
            y_title=tr("depth_gradients.length"),
            log_y=True,
        ),
        "stream",
        f"stream_length_D{cfg.D}",
    )

    def text() -> str:  # set once per process for what it reads (ui.drawn)
        means = t.length_spread.groupby("norm")["mean"]
        none = t.growth["none"]
        return tr(
            "depth_gradients.stream_text",
            post=means.last()["post"],
            sqrtD=math.sqrt(cfg.D),
            first=means.first()["pre"],
            pre=t.growth["pre"],
            none=f"{none:,.0f}" if none >= 100 else f"{none:.2f}",  # 47,735 rather than 4.77e+04
        )

    st.markdown(ui.drawn(text))
    label = tr("depth_gradients.dl_lengths")
    ui.csv_button(  # the table built when the button is clicked
        lambda: t.lengths.set_index("norm"), f"stream_length_D{cfg.D}", "csv_lengths", label=label
    )
