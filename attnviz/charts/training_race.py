"""The training race: loss and accuracy of post-LN and pre-LN against the step."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .depth_gradients import NORM_COLOURS


def race(
    history: pd.DataFrame,
    *,
    names: dict[str, str],
    titles: tuple[str, str],
    x_title: str,
    height: int = 400,
) -> go.Figure:
    """Loss (left) and accuracy (right) per step, one line per norm (columns step, norm, …)."""
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
    fig.update_xaxes(title=x_title)
    fig.update_yaxes(range=[0, 1.02], row=1, col=2)
    fig.update_layout(height=height, margin=dict(l=60, r=10, t=40, b=40))
    return fig
