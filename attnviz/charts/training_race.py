"""The training race: loss and accuracy per step for post-LN and pre-LN side by side, and
each head's pattern score against the step (the probe's maps: ``race_maps``)."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.colors import sample_colorscale
from plotly.subplots import make_subplots

from .depth_gradients import NORM_COLOURS
from .maps import LEGEND_AT_FOOT
from .rules import hline, panel, vline

HEAD_DASHES = ("solid", "dot", "dash", "dashdot", "longdash", "longdashdot")


# under the panels, in rows: beside them the long names took half the width, squeezed the
# panels to about 120 px and, with a layer × head list, needed a scroll bar
LEGEND_BELOW = dict(orientation="h", x=0, xanchor="left", y=-0.32, yanchor="top")
LEGEND_PER_ROW = 3  # names "layer 1, head 1" a row holds in the narrowest column (~540 px)
LEGEND_ROW_PX = 30  # one legend row at presentation mode's 20 px type


def race(
    history: pd.DataFrame,
    *,
    names: dict[str, str],
    titles: tuple[str, str],
    x_title: str,
    mark: int | None = None,
    height: int = 400,
) -> go.Figure:
    """Loss (left) and accuracy (right) per step, one line per norm (columns step, norm, …).

    ``mark`` draws a vertical line at that step and a dot on each curve's value there.
    """
    fig = make_subplots(rows=1, cols=2, subplot_titles=titles)
    for norm, part in history.groupby("norm", sort=False):
        for col, value in ((1, "loss"), (2, "accuracy")):
            fig.add_trace(
                go.Scatter(
                    x=part["step"].to_numpy(),
                    name=names.get(norm, norm),
                    y=part[value].to_numpy(np.float32),
                    mode="lines",
                    line_color=NORM_COLOURS.get(norm),
                    showlegend=col == 1,
                    legendgroup=norm,
                ),
                row=1,
                col=col,
            )
    if mark is not None:
        at = history[history["step"] == mark]
        step = dict(width=1, dash="dot", color="#555")
        fig.update_layout(shapes=[vline(mark, panel(1, col, 2), **step) for col in (1, 2)])
        for col, value in ((1, "loss"), (2, "accuracy")):
            for norm, row in at.groupby("norm", sort=False):
                fig.add_trace(
                    go.Scatter(
                        x=row["step"].to_numpy(),
                        y=row[value].to_numpy(np.float32),
                        name=names.get(norm, norm),
                        mode="markers",
                        marker=dict(color=NORM_COLOURS.get(norm), size=10, line_width=1),
                        showlegend=False,
                        legendgroup=norm,
                        hovertemplate="%{x}: %{y:.3f}<extra>%{fullData.name}</extra>",
                    ),
                    row=1,
                    col=col,
                )
    fig.update_xaxes(title=x_title)
    fig.update_yaxes(range=[0, 1.02], row=1, col=2)
    fig.update_layout(height=height, margin=dict(l=60, r=10, t=40, b=40), legend=LEGEND_BELOW)
    return fig


def scores(
    steps: np.ndarray,
    scores: Mapping[str, np.ndarray],
    *,
    names: dict[str, str],
    x_title: str,
    y_title: str,
    layer_head: str,
    chance: tuple[float, str],
    mark: int | None = None,
    height: int = 380,
) -> go.Figure:
    """Each head's pattern score (F, L, H) against the step, one panel per model.

    Colour is the layer (first layer darkest), dash the head, each line named by
    ``layer_head`` ("layer {l}, head {h}"); a dotted line marks the score of uniform rows
    (``chance`` = value, label) and ``mark`` the frame shown.
    """
    parts = list(scores)
    _, L, H = scores[parts[0]].shape
    colours = sample_colorscale("Plasma", np.linspace(0.0, 0.85, L)) if L > 1 else ["#0d0887"]
    fig = make_subplots(
        rows=1, cols=len(parts), shared_yaxes=True, subplot_titles=[names[k] for k in parts]
    )
    x = np.asarray(steps)
    rules = []  # chance on each panel, and the step shown
    for col, norm in enumerate(parts, start=1):
        for layer in range(L):
            for head in range(H):
                label = layer_head.format(l=layer + 1, h=head + 1)
                fig.add_trace(
                    go.Scatter(
                        x=x,
                        y=scores[norm][:, layer, head].astype(np.float32),
                        name=label,
                        mode="lines",
                        line=dict(
                            color=colours[layer],
                            dash=HEAD_DASHES[head % len(HEAD_DASHES)],
                            width=3 if layer == 0 else 1.5,
                        ),
                        legendgroup=label,
                        showlegend=col == 1,
                        hovertemplate=f"{label}<br>%{{x}}: %{{y:.3f}}<extra></extra>",
                    ),
                    row=1,
                    col=col,
                )
        at = panel(1, col, len(parts))
        rules.append(hline(chance[0], at, dash="dot", color="#777"))
        if mark is not None:
            rules.append(vline(mark, at, width=1, dash="dot", color="#555"))
    fig.update_layout(shapes=rules)
    # the dotted line's name in the legend: written on the panel, it lay over the curves,
    # which run at chance level before a head finds its pattern
    fig.add_scatter(
        x=[None], y=[None], mode="lines", name=chance[1], line=dict(dash="dot", color="#777")
    )
    fig.update_xaxes(title=x_title)
    fig.update_yaxes(range=[0, 1.02])
    fig.update_yaxes(title=y_title, row=1, col=1)
    # a legend of L × H names: its rows at the foot of the figure, below the axis titles,
    # and the figure taller by them, so that the panels keep their height
    below = LEGEND_ROW_PX * math.ceil((L * H + 1) / LEGEND_PER_ROW)  # heads, chance
    fig.update_layout(
        height=height + below,
        margin=dict(l=60, r=24, t=40, b=70 + below),  # room for the last step's tick label
        legend=LEGEND_AT_FOOT,
    )
    return fig
