"""Charts of the scoring page: grouped bars comparing two weight vectors by position."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..text import token_labels


def grouped_bars(
    series: dict[str, np.ndarray],
    x_labels: list[str],
    *,
    title: str = "",
    y_title: str = "",
    height: int = 340,
) -> go.Figure:
    """One bar group per position, one colour per series (e.g. before/after a shuffle)."""
    fig = go.Figure()
    x = np.arange(len(x_labels))
    for name, values in series.items():
        fig.add_trace(
            go.Bar(
                name=name,
                x=x,
                y=np.asarray(values, dtype=np.float32),
                hovertemplate=f"{name}<br>%{{x}}: %{{y:.4f}}<extra></extra>",
            )
        )
    fig.update_xaxes(tickmode="array", tickvals=x, ticktext=x_labels, automargin=True)
    fig.update_yaxes(automargin=True)
    fig.update_layout(
        title=title,
        yaxis_title=y_title,
        barmode="group",
        height=height,
        margin=dict(l=10, r=10, t=50, b=40),
        legend=dict(orientation="h", y=1.12),
    )
    return fig


def position_labels(tokens: list[str], order: np.ndarray | None = None) -> list[str]:
    """Labels "position:token" for ``tokens`` read in ``order`` (identity if None)."""
    order = np.arange(len(tokens)) if order is None else order
    return token_labels([tokens[i] for i in order])


def weights_bar(
    values: np.ndarray, tokens: list[str], *, title: str = "", y_title: str = "", height: int = 320
) -> go.Figure:
    """One row of scores or weights as bars over the source tokens."""
    values = np.asarray(values, dtype=np.float32)
    fig = go.Figure(
        go.Bar(
            x=np.arange(len(values)),
            y=values,
            hovertemplate="%{customdata}: %{y:.4f}<extra></extra>",
            customdata=token_labels(tokens),
        )
    )
    fig.update_xaxes(
        tickmode="array",
        tickvals=np.arange(len(values)),
        ticktext=token_labels(tokens),
        automargin=True,
    )
    fig.update_yaxes(automargin=True)
    fig.update_layout(
        title=title, yaxis_title=y_title, height=height, margin=dict(l=10, r=10, t=50, b=40)
    )
    return fig
