"""Block anatomy figures: the flow of one block, stream norms per step, LN of one token."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..text import token_labels
from .rules import hline, panel

HALF = 0.3  # half a box's height, in rows
BARS, STATS = "#636efa", "#222"  # both panels' bars one colour; mean and ± SD lines dark on them
LANE = 0.09  # a residual connection's distance left of the boxes, in box widths


def flow(
    steps: list[str],
    shapes: list[str],
    residuals: list[tuple[int, int]],
    *,
    row_px: int = 40,
    font_px: int = 13,
) -> go.Figure:
    """The data's path through one block, top to bottom: a box per step (LN steps
    coloured) with the shape of its output beside it, an arrow between steps, and each
    residual connection ``(a, b)`` as a line from step a down the left into step b, the
    sum. Consecutive connections take alternate lanes, and one leaves its box below the
    middle, where the one before may end: two lines where one ends and the next begins.

    The boxes, lines and notes are set at once: Plotly checks every annotation again at
    each ``add_annotation``, so adding them one by one costs the square of their number."""
    n = len(steps)
    row = {k: n - 1 - k for k in range(n)}  # step k's row, the first at the top
    boxes: list[dict] = []
    notes: list[dict] = []
    for k, (label, shape) in enumerate(zip(steps, shapes, strict=True)):
        ln = label.startswith("LN") or "= LN" in label  # a LayerNorm step, not one fed by it
        boxes.append(
            dict(
                type="rect",
                x0=0,
                x1=1,
                y0=row[k] - HALF,
                y1=row[k] + HALF,
                fillcolor="#fde0c5" if ln else "#dbe9f6",
                line_color="#555",
            )
        )
        notes.append(dict(x=0.5, y=row[k], text=label, showarrow=False, font_size=font_px))
        notes.append(
            dict(
                x=1.04,
                y=row[k],
                text=shape,
                showarrow=False,
                xanchor="left",
                font_size=font_px - 1,
                font_color="#555",
            )
        )
        if k:
            notes.append(_arrow((0.5, row[k - 1] - HALF), (0.5, row[k] + HALF)))
    for lane, (a, b) in enumerate(residuals):
        x, y = -LANE * (1 + lane % 2), row[a] - HALF / 2  # leaves below an arrow that ends at a
        boxes.append(dict(type="path", path=f"M 0,{y} L {x},{y} L {x},{row[b]}", line_color="#555"))
        notes.append(_arrow((x, row[b]), (0, row[b])))
    fig = go.Figure(layout=dict(shapes=boxes, annotations=notes))
    fig.update_xaxes(visible=False, range=[-3 * LANE, 1.5], fixedrange=True)
    fig.update_yaxes(visible=False, range=[-0.5, n - 0.5], fixedrange=True)
    fig.update_layout(height=n * row_px + 10, margin=dict(l=5, r=5, t=5, b=5), plot_bgcolor="white")
    return fig


def _arrow(tail: tuple[float, float], head: tuple[float, float]) -> dict:
    """An arrow from ``tail`` to ``head``, in the data's coordinates, as an annotation."""
    return dict(
        x=head[0],
        y=head[1],
        ax=tail[0],
        ay=tail[1],
        xref="x",
        yref="y",
        axref="x",
        ayref="y",
        text="",
        showarrow=True,
        arrowhead=2,
    )


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
    stands the steps' names on end (at 20 px, Plotly's slant runs them into each other)."""
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
    lines: list[dict] = []  # the mean and mean ± SD of each panel
    for col, values in ((1, before), (2, after)):
        values = np.asarray(values, np.float32)
        features = np.arange(1, len(values) + 1)
        fig.add_trace(
            go.Bar(x=features, y=values, marker_color=BARS, showlegend=False), row=1, col=col
        )
        fig.update_xaxes(title=x_title, row=1, col=col)
        for y, dash in (
            (values.mean(), "solid"),
            (values.mean() + values.std(), "dot"),
            (values.mean() - values.std(), "dot"),
        ):
            lines.append(hline(float(y), panel(1, col, 2), dash=dash, color=STATS))
    # room above for a panel title of two lines (one line ran past the chart's right edge)
    fig.update_layout(height=height, margin=dict(l=60, r=10, t=64, b=40), shapes=lines)
    return fig
