"""Gradients by depth: mean ± spread of gradient norms against a layer or a depth, and of the
stream's length against the block."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

NORM_COLOURS = {"post": "#d62728", "pre": "#1f77b4", "none": "#7f7f7f"}
# the lines of a model of Xiong et al.'s shape (lessons.depth_paper_shape)
PART_COLOURS = {"encoder": "#2ca02c", "decoder": "#9467bd", "decoder_alone": "#ff7f0e"}


def band(
    stats: pd.DataFrame,
    x: str,
    *,
    names: dict[str, str],
    title: str = "",
    x_title: str = "",
    y_title: str = "",
    log: bool = False,
    log_x: bool = False,
    log_y: bool = False,
    y_max: float | None = None,
    height: int = 420,
    reference: tuple[np.ndarray, np.ndarray, str] | None = None,
    colours: dict[str, str] | None = None,
) -> go.Figure:
    """Mean ± std (over seeds) per norm from ``stats`` (columns norm, x, mean, std); ``log``:
    both axes logarithmic, ``log_x`` or ``log_y``: that axis alone; ``y_max``: a linear
    y-axis from 0 to it, so that two panels given the same ``y_max`` share one scale;
    ``colours``: each line's colour by its ``norm`` value (NORM_COLOURS unless given)."""
    fig = go.Figure()
    for norm, part in stats.groupby("norm", sort=False):
        xs = part[x].to_numpy()
        m, s = part["mean"].to_numpy(np.float32), part["std"].to_numpy(np.float32)
        colour = (colours or NORM_COLOURS).get(norm, "#333")
        fig.add_trace(
            go.Scatter(
                x=np.concatenate([xs, xs[::-1]]),
                y=np.concatenate([m + s, (m - s)[::-1]]),
                fill="toself",
                line_width=0,
                fillcolor=colour,
                opacity=0.2,
                hoverinfo="skip",
                showlegend=False,
            )
        )
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=m,
                mode="lines+markers",
                name=names.get(norm, norm),
                line_color=colour,
                error_y=dict(type="data", array=s),
            )
        )
    if reference is not None:
        rx, ry, label = reference
        fig.add_trace(
            go.Scatter(
                x=rx,
                y=np.asarray(ry, np.float32),
                mode="lines",
                name=label,
                line=dict(dash="dash", color="#1f77b4"),
            )
        )
    fig.update_layout(
        title=title,
        xaxis_title=x_title,
        yaxis_title=y_title,
        height=height,
        margin=dict(l=60, r=10, t=50, b=40),
        # under the plot: beside it, the norms' names took half the width when presenting
        legend=dict(orientation="h", x=0, xanchor="left", y=-0.32, yanchor="top"),
    )
    if log or log_x:  # ticks at the depths measured
        depths = np.unique(stats[x].to_numpy())
        fig.update_xaxes(type="log", tickmode="array", tickvals=depths, ticktext=depths)
    if log or log_y:  # ticks at 1, 2, 5 of each decade of the values
        fig.update_yaxes(type="log", tickmode="array", tickvals=one_two_five(fig))
    elif y_max is not None:
        fig.update_yaxes(range=[0, y_max], rangemode="tozero")
    return fig


def shared_top(*stats: pd.DataFrame, extra: tuple[np.ndarray, ...] = ()) -> float:
    """One y-axis's top for panels that share it from 0: 5 % above the highest mean + std of
    every ``stats`` and of any ``extra`` line drawn on them."""
    tops = [float((s["mean"] + s["std"]).max()) for s in stats]
    tops += [float(np.max(e)) for e in extra]
    return 1.05 * max(tops)


def one_two_five(fig: go.Figure) -> list[float]:
    """1, 2 and 5 times each power of ten from below the figure's least y to above its
    greatest (the axis's autorange shows those in its range, all at one type size); 1 … 9
    times where fewer than two of those fall inside the data (post-LN's last layer spans
    less than ×2, between 5 and 10); over more than four decades (the stream with no LN)
    the powers of ten alone, as 1-2-5 ticks would crowd each other."""
    ys = np.concatenate([np.asarray(t.y, float) for t in fig.data])
    ys = ys[ys > 0]
    lo, hi = int(np.floor(np.log10(ys.min()))), int(np.ceil(np.log10(ys.max())))

    def ticks(steps: tuple[int, ...]) -> list[float]:
        return [k * 10.0**e for e in range(lo, hi + 1) for k in steps]

    if hi - lo > 4:
        return ticks((1,))
    inside = [v for v in ticks((1, 2, 5)) if ys.min() <= v <= ys.max()]
    return ticks((1, 2, 5)) if len(inside) >= 2 else ticks(tuple(range(1, 10)))
