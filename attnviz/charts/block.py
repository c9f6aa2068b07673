"""Figures for the block pages: the flow diagram, stream norms, LN per token, gradient norms
by depth, the training race and positional-encoding matrices."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

COLOURS = {"post": "#d62728", "pre": "#1f77b4", "none": "#7f7f7f"}


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
) -> go.Figure:
    """‖·‖ of every token (one line each) after every step (x axis)."""
    fig = go.Figure()
    for i, tok in enumerate(tokens):
        fig.add_trace(
            go.Scatter(
                x=steps,
                y=np.asarray(norms[:, i], np.float32),
                mode="lines+markers",
                name=f"{i}:{tok}",
            )
        )
    fig.update_layout(
        title=title, yaxis_title=y_title, height=height, margin=dict(l=60, r=10, t=50, b=40)
    )
    return fig


def ln_token(
    before: np.ndarray, after: np.ndarray, names: tuple[str, str], *, height: int = 360
) -> go.Figure:
    """One token's D features before LN and after normalisation (before γ, β)."""
    fig = make_subplots(rows=1, cols=2, subplot_titles=names)
    for col, values in ((1, before), (2, after)):
        values = np.asarray(values, np.float32)
        fig.add_trace(go.Bar(y=values, showlegend=False), row=1, col=col)
        for y, dash in (
            (values.mean(), "solid"),
            (values.mean() + values.std(), "dot"),
            (values.mean() - values.std(), "dot"),
        ):
            fig.add_hline(y=float(y), line_dash=dash, line_color="#d62728", row=1, col=col)
    fig.update_layout(height=height, margin=dict(l=60, r=10, t=40, b=40))
    return fig


def band(
    stats: pd.DataFrame,
    x: str,
    *,
    names: dict[str, str],
    title: str = "",
    x_title: str = "",
    y_title: str = "",
    log: bool = False,
    height: int = 420,
    reference: tuple[np.ndarray, np.ndarray, str] | None = None,
) -> go.Figure:
    """Mean ± std (over seeds) per norm from ``stats`` (columns norm, x, mean, std)."""
    fig = go.Figure()
    for norm, part in stats.groupby("norm", sort=False):
        xs = part[x].to_numpy()
        m, s = part["mean"].to_numpy(np.float32), part["std"].to_numpy(np.float32)
        colour = COLOURS.get(norm, "#333")
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
    )
    if log:
        fig.update_xaxes(type="log")
        fig.update_yaxes(type="log")
    return fig


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
                    line_color=COLOURS.get(norm),
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
    """A plain matrix heat map (rows top to bottom), e.g. positions × dimensions."""
    z = np.asarray(z, dtype=np.float32)
    fig = go.Figure(
        go.Heatmap(
            z=z,
            zmid=zmid,
            colorscale=colorscale,
            hovertemplate="%{y}, %{x}: %{z:.3f}<extra></extra>",
        )
    )
    fig.update_yaxes(title=y_title, autorange="reversed")
    fig.update_xaxes(title=x_title)
    fig.update_layout(title=title, height=height, margin=dict(l=60, r=10, t=50, b=40))
    return fig


def rows(
    values: dict[str, np.ndarray],
    tokens: list[str],
    *,
    title: str = "",
    y_title: str = "",
    height: int = 340,
) -> go.Figure:
    """Grouped bars: several attention rows (name → (N,)) over the same key tokens."""
    labels = [f"{i}:{t}" for i, t in enumerate(tokens)]
    fig = go.Figure(
        [go.Bar(x=labels, y=np.asarray(v, np.float32), name=k) for k, v in values.items()]
    )
    fig.update_layout(
        barmode="group",
        title=title,
        yaxis_title=y_title,
        height=height,
        margin=dict(l=60, r=10, t=50, b=40),
    )
    return fig
