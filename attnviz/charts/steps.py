"""One weight followed through its formula, as charts (the multi-head and real-model pages
draw them under a picked cell): ``terms_chart`` (the summands of s_ij: which dimensions
carry the score), ``row_chart`` (the row before and after softmax), ``values_chart`` (v_j,
a_ij v_j and the head's output row).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from ..stepthrough import WeightSteps
from ..text import token_labels
from .maps import TICK_LABELS_MAX_N

HIGHLIGHT = "#e02020"  # the picked cell, key and query
POSITIVE, NEGATIVE, MUTED = "#1f77b4", "#d62728", "#b0b0b0"


def left_title(text: str) -> dict:
    """A chart title on the left, small enough for a long sentence."""
    return dict(text=text, x=0.01, xanchor="left", font_size=14)


def _bars(values: np.ndarray) -> list[str]:
    return np.where(values >= 0, POSITIVE, NEGATIVE).tolist()


def terms_chart(
    steps: WeightSteps, *, title: str = "", x_title: str = "d", y_title: str = ""
) -> go.Figure:
    """The summands of s_ij (q_i,d k_j,d, or the score's own terms) as bars, by dimension;
    blue adds to the score, red takes from it."""
    terms = np.asarray(steps.terms, dtype=np.float32)
    fig = go.Figure(
        go.Bar(
            x=np.arange(1, len(terms) + 1, dtype=np.int32),
            y=terms,
            marker_color=_bars(terms),
            hovertemplate=f"{x_title} = %{{x}}<br>%{{y:.4f}}<extra></extra>",
        )
    )
    fig.update_layout(
        title=left_title(title),
        height=300,
        margin=dict(l=10, r=10, t=40, b=10),
        bargap=0.1,
        showlegend=False,
    )
    fig.update_xaxes(title=x_title, automargin=True)
    fig.update_yaxes(title=y_title, automargin=True, zeroline=True, zerolinecolor="#888")
    return fig


def _key_axis(tokens: Sequence[str], positions: np.ndarray) -> dict:
    if len(tokens) > TICK_LABELS_MAX_N:
        return {}
    return dict(tickmode="array", tickvals=positions, ticktext=token_labels(tokens, positions))


def row_chart(
    steps: WeightSteps,
    tokens: Sequence[str],
    *,
    title: str = "",
    score_title: str = "s",
    weight_title: str = "a",
    key_title: str = "",
) -> go.Figure:
    """Query i's row before softmax (s_i·, top) and after (a_i·, bottom), one bar per key;
    key j in red, keys the mask forbids in grey."""
    positions = np.arange(len(tokens), dtype=np.int32)
    labels = np.asarray(token_labels(tokens, positions), dtype=object)
    colours = np.where(steps.m_row, POSITIVE, MUTED).astype(object)
    colours[steps.j] = HIGHLIGHT
    fig = go.Figure()
    for values, axis, name in ((steps.s_row, "y", score_title), (steps.a_row, "y2", weight_title)):
        fig.add_trace(
            go.Bar(
                x=positions,
                y=np.asarray(values, dtype=np.float32),
                yaxis=axis,
                xaxis="x" if axis == "y" else "x2",
                marker_color=colours.tolist(),
                text=labels,
                hovertemplate=f"%{{text}}<br>{name} = %{{y:.4f}}<extra></extra>",
                textposition="none",
                showlegend=False,
            )
        )
    ticks = _key_axis(tokens, positions)
    fig.update_layout(
        title=left_title(title),
        height=420,
        margin=dict(l=10, r=10, t=50, b=10),
        bargap=0.15,
        xaxis=dict(anchor="y", showticklabels=False, matches="x2"),
        yaxis=dict(domain=[0.58, 1.0], title=score_title, zerolinecolor="#888", automargin=True),
        xaxis2=dict(anchor="y2", title=key_title, automargin=True, **ticks),
        yaxis2=dict(domain=[0.0, 0.42], title=weight_title, rangemode="tozero", automargin=True),
    )
    return fig


def values_chart(
    steps: WeightSteps,
    *,
    title: str = "",
    v_name: str = "v_j",
    mixed_name: str = "a_ij v_j",
    head_name: str = "head",
    x_title: str = "d",
) -> go.Figure:
    """The value vectors mixed, by dimension d of D': v_j (open markers), its share
    a_ij v_j (bars) and the head's output row Σ_l a_il v_l (line)."""
    d = np.arange(1, len(steps.v_j) + 1, dtype=np.int32)
    fig = go.Figure(
        [
            go.Bar(
                x=d,
                y=np.asarray(steps.a_ij_v_j, dtype=np.float32),
                name=mixed_name,
                marker_color=HIGHLIGHT,
            ),
            go.Scatter(
                x=d,
                y=np.asarray(steps.v_j, dtype=np.float32),
                name=v_name,
                mode="markers",
                marker=dict(symbol="circle-open", size=8, color="#555"),
            ),
            go.Scatter(
                x=d,
                y=np.asarray(steps.head_i, dtype=np.float32),
                name=head_name,
                mode="lines+markers",
                line=dict(color=POSITIVE),
                marker=dict(size=5),
            ),
        ]
    )
    fig.update_layout(
        title=left_title(title),
        height=340,
        margin=dict(l=10, r=10, t=70, b=10),
        legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0),
        hovermode="x unified",
    )
    fig.update_xaxes(title=x_title, automargin=True)
    fig.update_yaxes(zeroline=True, zerolinecolor="#888", automargin=True)
    return fig
