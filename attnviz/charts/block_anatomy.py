"""Block anatomy figures: the flow of one block, stream norms per step, LN of one token."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..text import token_labels


def _wrap(label: str, width: int = 9) -> str:
    """Break a long box label onto two lines, before its "=" or its first "+"."""
    if " = " in label:
        return label.replace(" = ", "<br>= ", 1)
    if len(label) > width and "+" in label:
        return label.replace("+", "<br>+", 1)
    return label


def flow(steps: list[str], shapes: list[str], *, height: int = 220) -> go.Figure:
    """Boxes for each step of the data's path, left to right, with arrows and shapes."""
    fig = go.Figure()
    n = len(steps)
    for k, (label, shape) in enumerate(zip(steps, shapes, strict=True)):
        ln = label.startswith("LN") or "= LN" in label  # a LayerNorm step, not one fed by it
        fig.add_shape(
            type="rect",
            x0=k + 0.08,
            x1=k + 0.92,
            y0=0.25,
            y1=0.75,
            fillcolor="#fde0c5" if ln else "#dbe9f6",
            line_color="#555",
        )
        fig.add_annotation(x=k + 0.5, y=0.5, text=_wrap(label), showarrow=False, font_size=10)
        fig.add_annotation(
            x=k + 0.5, y=0.12, text=shape, showarrow=False, font_size=11, font_color="#555"
        )
        if k:
            fig.add_annotation(
                x=k + 0.08,
                y=0.5,
                ax=k - 0.08,
                ay=0.5,
                xref="x",
                yref="y",
                axref="x",
                ayref="y",
                text="",
                showarrow=True,
                arrowhead=2,
            )
    fig.update_xaxes(visible=False, range=[0, n])
    fig.update_yaxes(visible=False, range=[0, 1])
    fig.update_layout(height=height, margin=dict(l=5, r=5, t=5, b=5), plot_bgcolor="white")
    return fig


def stream_norms(
    norms: np.ndarray,
    steps: list[str],
    tokens: list[str],
    *,
    title: str = "",
    y_title: str = "",
    height: int = 380,
    upright_steps: bool = False,
) -> go.Figure:
    """‖·‖ of every token (one line each) after every step (x axis); ``upright_steps``
    stands the steps' names on end (at 20 px, Plotly's slant ran them into each other)."""
    fig = go.Figure()
    for i, label in enumerate(token_labels(tokens)):
        fig.add_trace(
            go.Scatter(
                x=steps,
                y=np.asarray(norms[:, i], np.float32),
                mode="lines+markers",
                name=label,
            )
        )
    fig.update_layout(
        title=title, yaxis_title=y_title, height=height, margin=dict(l=60, r=10, t=50, b=40)
    )
    fig.update_xaxes(automargin=True)  # the steps' labels, turned, need more than 40 px
    if upright_steps:
        fig.update_xaxes(tickangle=-90)
    return fig


def ln_token(
    before: np.ndarray,
    after: np.ndarray,
    names: tuple[str, str],
    *,
    x_title: str = "",
    height: int = 360,
) -> go.Figure:
    """One token's D features (numbered 1 … D) before LN and after normalisation (before γ, β)."""
    fig = make_subplots(rows=1, cols=2, subplot_titles=names)
    for col, values in ((1, before), (2, after)):
        values = np.asarray(values, np.float32)
        features = np.arange(1, len(values) + 1)
        fig.add_trace(go.Bar(x=features, y=values, showlegend=False), row=1, col=col)
        fig.update_xaxes(title=x_title, row=1, col=col)
        for y, dash in (
            (values.mean(), "solid"),
            (values.mean() + values.std(), "dot"),
            (values.mean() - values.std(), "dot"),
        ):
            fig.add_hline(y=float(y), line_dash=dash, line_color="#d62728", row=1, col=col)
    fig.update_layout(height=height, margin=dict(l=60, r=10, t=40, b=40))
    return fig
