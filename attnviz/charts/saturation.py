"""Figures of the √D lesson (S3): logit histograms, curves against D, one row of weights.

Every builder takes the words it shows (legend names, titles) as arguments, so the
app passes them in the reader's language. Arrays go out as float32.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .maps import LEGEND_AT_FOOT
from .rules import hline, panel, vline

RAW, SCALED = "#d62728", "#1f77b4"  # unscaled qᵀk red, scaled qᵀk/√D blue
BINS = 80
# under the axes, not over the bars: an opaque legend inside hid the tallest bars' tops
BELOW = dict(orientation="h", x=0, xanchor="left", y=-0.3, yanchor="top")
# D on a log axis labelled at powers of 4 only: Plotly's own minor labels (2, 5) read as
# widths measured, and a "5" under 1 meant 0.5
D_TICKS = dict(type="log", tickmode="array", tickvals=[4**k for k in range(7)])


def logit_histograms(
    raw: np.ndarray,
    D: int,
    names: tuple[str, str],
    *,
    title: str = "",
    x_title: str = "",
    height: int = 360,
) -> go.Figure:
    """Densities of qᵀk and qᵀk/√D on shared bins (binned here: a small payload)."""
    raw = np.asarray(raw, dtype=np.float64).reshape(-1)
    scaled = raw / np.sqrt(D)
    lim = float(max(np.abs(raw).max(), np.abs(scaled).max(), 1e-6))
    edges = np.linspace(-lim, lim, BINS + 1)
    centres, width = (edges[:-1] + edges[1:]) / 2, edges[1] - edges[0]
    fig = go.Figure()
    for values, name, colour in ((raw, names[0], RAW), (scaled, names[1], SCALED)):
        density, _ = np.histogram(values, bins=edges, density=True)
        fig.add_bar(
            x=centres.astype(np.float32),
            y=density.astype(np.float32),
            width=width,
            name=name,
            marker_color=colour,
            opacity=0.6,
        )
    fig.update_layout(
        barmode="overlay",
        title=title,
        xaxis_title=x_title,
        height=height,
        margin=dict(l=60, r=10, t=50, b=40),
        legend=BELOW,
    )
    return fig


def variance_curve(
    curves: pd.DataFrame,
    slope: dict[bool, float],
    D: int,
    names: tuple[str, str],
    *,
    title: str = "",
    y_title: str = "",
    slope_name: str = "slope",
    height: int = 360,
    product: float = 1.0,
) -> go.Figure:
    """Var of the logits against D on log-log axes, with the law's line Var = D σ_q² σ_k²
    (``product`` = σ_q² σ_k²; Var = D for unit components) and, scaled, Var = σ_q² σ_k².

    Each curve's legend entry ends with ``(slope_name <fitted slope>)``.
    """
    fig = go.Figure()
    for scaled, name, colour in ((False, names[0], RAW), (True, names[1], SCALED)):
        part = curves[curves["scaled"] == scaled]
        fig.add_scatter(
            x=part["D"].to_numpy(np.float32),
            y=part["variance"].to_numpy(np.float32),
            mode="lines+markers",
            name=f"{name}  ({slope_name} {slope[scaled]:.3f})",
            line_color=colour,
        )
    xs = np.array([1, curves["D"].max()], dtype=np.float32)
    law = "Var = D" if product == 1 else f"Var = {product:g} D"
    fig.add_scatter(
        x=xs, y=product * xs, mode="lines", name=law, line=dict(color="grey", dash="dot")
    )
    if product != 1:  # what the √D division leaves: σ_q² σ_k², not 1
        flat = np.full(2, product, dtype=np.float32)
        style = dict(color="grey", dash="dash")
        fig.add_scatter(x=xs, y=flat, mode="lines", name=f"Var = {product:g}", line=style)
    fig.update_layout(shapes=[vline(D, color="grey", width=1)])
    fig.update_xaxes(title="D", **D_TICKS)
    fig.update_yaxes(type="log", dtick=1, title=y_title)  # one label a decade
    fig.update_layout(title=title, height=height, margin=dict(l=60, r=10, t=50, b=40), legend=BELOW)
    return fig


def softmax_curves(
    curves: pd.DataFrame,
    D: int,
    N: int,
    names: tuple[str, str],
    titles: dict[str, str],
    *,
    height: int = 560,
    tick_base: int = 4,
) -> go.Figure:
    """Four panels against D: largest weight, entropy, ‖J‖_F and share of saturated rows.

    ``titles`` maps the columns max_weight, entropy, jacobian, saturated to panel titles.
    D is labelled at the powers of ``tick_base``: 16 keeps four labels a panel, upright at
    20 px (seven, turned, ran into the titles and the axis title below them).
    """
    cols = ("max_weight", "entropy", "jacobian", "saturated")
    fig = make_subplots(
        rows=2,
        cols=2,
        subplot_titles=[titles[c] for c in cols],
        horizontal_spacing=0.08,
        vertical_spacing=0.2,  # room for titles of two lines
    )
    for k, col in enumerate(cols):
        r, c = divmod(k, 2)
        for scaled, name, colour in ((False, names[0], RAW), (True, names[1], SCALED)):
            part = curves[curves["scaled"] == scaled]
            fig.add_scatter(
                x=part["D"].to_numpy(np.float32),
                y=part[col].to_numpy(np.float32),
                mode="lines+markers",
                name=name,
                line_color=colour,
                legendgroup=name,
                showlegend=k == 0,
                row=r + 1,
                col=c + 1,
            )
    rules = [vline(D, panel(r, c, 2), color="grey", width=1) for r in (1, 2) for c in (1, 2)]
    rules.append(hline(float(np.log(N)), panel(1, 2, 2), color="grey", dash="dot"))
    fig.update_layout(shapes=rules)
    # entropy ≤ log N: room above its line, which would otherwise run along the panel's title
    fig.update_yaxes(range=[0, 1.12 * float(np.log(N))], row=1, col=2)
    labelled = [tick_base**k for k in range(7) if tick_base**k <= curves["D"].max()]
    fig.update_xaxes(**(D_TICKS | dict(tickvals=labelled)))
    # "D" under the lower panels only: not on the titles below
    fig.update_xaxes(title="D", automargin=True, row=2)
    fig.update_layout(height=height, margin=dict(l=60, r=10, t=64, b=40), legend=LEGEND_AT_FOOT)
    return fig


def weight_rows(
    raw_weights: np.ndarray,
    scaled_weights: np.ndarray,
    names: tuple[str, str],
    *,
    title: str = "",
    x_title: str = "",
    height: int = 320,
) -> go.Figure:
    """One query's softmax weights over the N keys k_1 … k_N, unscaled beside scaled."""
    keys = np.arange(1, len(raw_weights) + 1)  # the chapter numbers from 1
    fig = go.Figure()
    for w, name, colour in ((raw_weights, names[0], RAW), (scaled_weights, names[1], SCALED)):
        fig.add_bar(x=keys, y=np.asarray(w, dtype=np.float32), name=name, marker_color=colour)
    fig.update_layout(
        barmode="group",
        title=title,
        xaxis_title=x_title,
        height=height,
        yaxis_range=[0, 1],
        margin=dict(l=60, r=10, t=50, b=40),
        legend=BELOW,
    )
    return fig
