"""Charts of the scoring page: bars over the sources, grouped bars by position, and
labelled matrices (scores × sources, queries × sources, queries × components)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..text import token_labels
from .maps import LEGEND_AT_FOOT, TICK_LABELS_MAX_N, counted, map_trace, pairs
from .raster import COLORSCALE


def _positions(labels: list[str]) -> tuple[np.ndarray, dict]:
    """Bars at positions 1 … N, and their axis: every label while at most TICK_LABELS_MAX_N,
    else whole numbers (hundreds of labels would run together and take the
    browser tens of seconds to lay out); the labels stay in the hover."""
    x = np.arange(1, len(labels) + 1)
    if len(labels) > TICK_LABELS_MAX_N or list(labels) == [str(v) for v in x]:
        return x, counted(len(x))  # positions or components, numbered
    # Plotly hides a label that runs past the figure's edge ("hide past div", its default on
    # a numeric axis): the last token's, set level under the last bar, was dropped
    return x, dict(tickmode="array", tickvals=x, ticktext=labels, ticklabeloverflow="allow")


def grouped_bars(
    series: dict[str, np.ndarray],
    x_labels: list[str],
    *,
    title: str = "",
    y_title: str = "",
    height: int = 380,  # the legend below takes ~30 px of it
) -> go.Figure:
    """One bar group per position, one colour per series (e.g. before/after a shuffle)."""
    fig = go.Figure()
    x, ticks = _positions(x_labels)
    for name, values in series.items():
        fig.add_trace(
            go.Bar(
                name=name,
                x=x,
                y=np.asarray(values, dtype=np.float32),
                customdata=x_labels,
                hovertemplate=f"{name}<br>%{{customdata}}: %{{y:.4f}}<extra></extra>",
            )
        )
    fig.update_xaxes(automargin=True, **ticks)
    fig.update_yaxes(automargin=True)
    fig.update_layout(
        title=title,
        yaxis_title=y_title,
        barmode="group",
        height=height,
        margin=dict(l=10, r=10, t=50, b=40),
        legend=LEGEND_AT_FOOT,
    )
    return fig


def position_labels(tokens: list[str], order: np.ndarray | None = None) -> list[str]:
    """Labels "position:token" (positions from 1) for ``tokens`` read in ``order``."""
    order = np.arange(len(tokens)) if order is None else order
    return token_labels([tokens[i] for i in order])


def weights_bar(
    values: np.ndarray,
    tokens: list[str],
    *,
    title: str = "",
    y_title: str = "",
    height: int = 320,
    numbered: bool = True,
) -> go.Figure:
    """One row of scores or weights as bars over the source tokens ("i:token", from 1).

    ``numbered=False`` uses ``tokens`` as the labels themselves (e.g. component numbers).
    """
    values = np.asarray(values, dtype=np.float32)
    labels = token_labels(tokens) if numbered else list(tokens)
    x, ticks = _positions(labels)
    fig = go.Figure(
        go.Bar(
            x=x,
            y=values,
            hovertemplate="%{customdata}: %{y:.4f}<extra></extra>",
            customdata=labels,
        )
    )
    fig.update_xaxes(automargin=True, **ticks)
    fig.update_yaxes(automargin=True)
    fig.update_layout(
        title=title, yaxis_title=y_title, height=height, margin=dict(l=10, r=10, t=50, b=40)
    )
    return fig


def matrix(
    z: np.ndarray,
    x_labels: list[str],
    y_labels: list[str],
    *,
    title: str = "",
    x_title: str = "",
    y_title: str = "",
    zmin: float | None = 0.0,
    zmax: float | None = 1.0,
    colorscale: str = COLORSCALE,
    height: int = 300,
    y_hover: list[str] | None = None,
) -> go.Figure:
    """A small matrix with the labels given on both axes and "row → column: value" on hover.

    Rows run top to bottom. Labels are used as given (escape them for HTML first); an axis
    longer than TICK_LABELS_MAX_N keeps them for hover only. ``y_hover`` names the rows in
    the hover where the axis shows short labels (a formula for a score's full name).
    """
    z = np.asarray(z, dtype=np.float32)
    n_y, n_x = z.shape
    xs, ys = np.arange(1, n_x + 1), np.arange(1, n_y + 1)  # from 1, as the chapter counts
    fig = go.Figure(
        map_trace(
            z,
            x=xs,
            y=ys,
            zmin=zmin,
            zmax=zmax,
            zmid=None if zmin is not None else 0.0,
            colorscale=colorscale,
            hover=pairs(y_hover or y_labels, x_labels),
        )
    )
    numbers = list(x_labels) == [str(x) for x in xs]  # components 1 … n: counted, not named
    named = n_x <= TICK_LABELS_MAX_N and not numbers
    x_ticks = dict(tickmode="array", tickvals=xs, ticktext=x_labels) if named else counted(n_x)
    y_ticks = (
        dict(tickmode="array", tickvals=ys, ticktext=y_labels) if n_y <= TICK_LABELS_MAX_N else {}
    )
    fig.update_xaxes(title=x_title, automargin=True, **x_ticks)
    fig.update_yaxes(title=y_title, autorange="reversed", automargin=True, **y_ticks)
    fig.update_layout(title=title, height=height, margin=dict(l=10, r=10, t=50, b=10))
    return fig
