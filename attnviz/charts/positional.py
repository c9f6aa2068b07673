"""Positional encodings: a table as a heat map, and a few rows as bars."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..text import token_labels
from .maps import TICK_LABELS_MAX_N, counted, map_trace


def matrix(
    z: np.ndarray,
    *,
    title: str = "",
    x_title: str = "",
    y_title: str = "",
    zmid: float | None = 0.0,
    colorscale: str = "RdBu_r",
    height: int = 380,
) -> go.Figure:
    """A plain matrix heat map (rows top to bottom), e.g. positions × dimensions.

    Rows and columns are numbered from 1, as the chapter numbers positions and components.
    """
    z = np.asarray(z, dtype=np.float32)
    fig = go.Figure(
        map_trace(
            z,
            x=np.arange(1, z.shape[1] + 1),
            y=np.arange(1, z.shape[0] + 1),
            zmin=None,
            zmax=None,
            zmid=zmid,
            colorscale=colorscale,
            template="%{y}, %{x}: %{z:.3f}<extra></extra>",
        )
    )
    fig.update_yaxes(title=y_title, autorange="reversed", **counted(z.shape[0]))
    fig.update_xaxes(title=x_title, **counted(z.shape[1]))
    fig.update_layout(title=title, height=height, margin=dict(l=60, r=10, t=50, b=40))
    return fig


def rows(
    values: dict[str, np.ndarray],
    tokens: list[str],
    *,
    title: str = "",
    y_title: str = "",
    height: int = 340,
    y_max: float | None = None,
) -> go.Figure:
    """Grouped bars: several attention rows (name → (N,)) over the same key tokens.

    Every token is labelled (Plotly's own ticks skip every other one, and with it one of
    two compared positions) up to TICK_LABELS_MAX_N; ``y_max`` fixes the y range to
    [0, y_max], one range for charts read side by side.
    """
    labels = token_labels(tokens)
    fig = go.Figure(
        [go.Bar(x=labels, y=np.asarray(v, np.float32), name=k) for k, v in values.items()]
    )
    fig.update_layout(
        barmode="group",
        title=title,
        yaxis_title=y_title,
        height=height,
        margin=dict(l=60, r=10, t=50, b=40),
        legend=dict(orientation="h", x=0, xanchor="left", y=-0.32, yanchor="top"),
    )
    fig.update_xaxes(automargin=True)  # the token labels and the legend below them
    if len(labels) <= TICK_LABELS_MAX_N:
        fig.update_xaxes(tickmode="array", tickvals=labels, ticktext=labels)
    fig.update_yaxes(automargin=True)
    if y_max is not None:
        fig.update_yaxes(range=[0, y_max])
    return fig


def difference(
    values: dict[str, np.ndarray],
    tokens: list[str],
    *,
    title: str = "",
    y_title: str = "",
    height: int = 340,
) -> go.Figure:
    """Grouped bars of row differences (name → (N,), e.g. Δ_k = a_jk − a_ik) over the keys.

    The y range is symmetric about 0 and scaled to the largest |Δ| shown, so a difference a
    tenth of the weights' own range still fills the chart; an all-zero set keeps ±0.001.
    """
    fig = rows(values, tokens, title=title, y_title=y_title, height=height)
    top = max((float(np.abs(v).max()) for v in values.values()), default=0.0)
    reach = 1.1 * max(top, 1e-3)
    fig.update_yaxes(range=[-reach, reach], zeroline=True, zerolinecolor="grey")
    return fig
