"""A LayerNorm's γ and β (S13): the two vectors over the components, and, per component, every
token's normalised input against its output, on the one line γ_d x + β_d."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..text import token_labels
from .maps import LEGEND_AT_FOOT
from .rules import panel

COLOURS = ("#1f77b4", "#d62728", "#2ca02c")


def gamma_beta(
    gamma: np.ndarray,
    beta: np.ndarray,
    *,
    titles: tuple[str, str] = ("γ", "β"),
    x_title: str = "d",
    height: int = 380,
) -> go.Figure:
    """γ_d and β_d against the component d = 1 … D, one panel each: one vector of each for
    all tokens. Dotted: their values at initialisation, 1 and 0."""
    d = np.arange(1, len(gamma) + 1)
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, subplot_titles=titles)
    for row, v in enumerate((gamma, beta), start=1):
        fig.add_scatter(x=d, y=np.asarray(v, np.float32), mode="lines", row=row, col=1)
    starts = (1.0, 0.0)  # γ's and β's values at initialisation, dotted over d = 1 … D only
    dotted = [
        dict(type="line", xref=f"x{panel(r, 1, 1)}", yref=f"y{panel(r, 1, 1)}", x0=1, x1=len(d))
        | dict(y0=y, y1=y, line=dict(color="grey", dash="dot"))
        for r, y in enumerate(starts, 1)
    ]
    fig.update_layout(shapes=dotted)
    # the axis spans the components exactly, and its title stands below its tick labels
    fig.update_xaxes(range=[1, len(d)], automargin=True)
    fig.update_xaxes(title=dict(text=x_title, standoff=10), row=2, col=1)
    fig.update_layout(height=height, showlegend=False, margin=dict(l=60, r=10, t=40, b=10))
    return fig


def token_lines(
    x_hat: np.ndarray,
    out: np.ndarray,
    gamma: np.ndarray,
    beta: np.ndarray,
    components: tuple[int, ...],
    tokens: list[str],
    *,
    name: str = "d = {d}: γ = {g:.3f}, β = {b:.3f}",
    title: str = "",
    x_title: str = "",
    y_title: str = "",
    height: int = 420,
) -> go.Figure:
    """For each component d (0-based in ``components``), every token t as a point
    (x̂_td, LN(x_t)_d) and the line γ_d x + β_d through them: one pair for all tokens."""
    labels = token_labels(tokens)
    fig = go.Figure()
    for colour, d in zip(COLOURS, components, strict=False):
        g, b = float(gamma[d]), float(beta[d])
        xs = x_hat[:, d]
        legend = name.format(d=d + 1, g=g, b=b)  # components counted from 1
        fig.add_scatter(
            x=xs.astype(np.float32),
            y=out[:, d].astype(np.float32),
            mode="markers",
            marker=dict(color=colour, size=8),
            name=legend,
            legendgroup=legend,
            text=labels,
            hovertemplate="%{text}<br>x̂ = %{x:.3f}, LN = %{y:.3f}<extra></extra>",
        )
        ends = np.array([xs.min(), xs.max()])
        fig.add_scatter(
            x=ends.astype(np.float32),
            y=(g * ends + b).astype(np.float32),
            mode="lines",
            line=dict(color=colour, width=1),
            legendgroup=legend,
            showlegend=False,
            hoverinfo="skip",
        )
    fig.update_layout(
        title=title,
        xaxis_title=x_title,
        yaxis_title=y_title,
        height=height,
        margin=dict(l=60, r=10, t=50, b=40),
        legend=LEGEND_AT_FOOT,
    )
    return fig
