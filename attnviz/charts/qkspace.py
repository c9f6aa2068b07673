"""A head's queries and keys in two shared axes (``qk_chart``), one trace per marker kind
at any N: the query–key picture of the multi-head and real-model pages.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from ..qkspace import QKSpace
from ..text import token_labels
from .steps import HIGHLIGHT

SENTENCE_COLOURS = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#17becf",
    "#bcbd22",
)


def left_title(text: str) -> dict:
    """A chart title on the left, small enough for a long sentence."""
    return dict(text=text, x=0.01, xanchor="left", font_size=14)


def qk_chart(
    space: QKSpace,
    tokens: Sequence[str],
    *,
    title: str = "",
    query_name: str = "query",
    key_name: str = "key",
    x_title: str = "",
    y_title: str = "",
    colour_title: str = "",
    sentence_names: Sequence[str] | None = None,
) -> go.Figure:
    """Queries (circles) and keys (diamonds) of one head in the same two axes, coloured by
    token position (one sentence) or by sentence (``sentence_names``, pooled); the chosen
    query is ringed and joined to its top keys by lines whose width is the weight.

    Two marker traces whatever N; one short line trace per top key. Equal axis scales, so
    directions and lengths in the picture are those of the projected vectors.
    """
    labels = token_labels(tokens, space.position)
    if sentence_names is not None:
        hover = [f"{sentence_names[s]} · {t}" for s, t in zip(space.sentence, labels, strict=True)]
        palette = np.asarray(SENTENCE_COLOURS, dtype=object)
        colours = palette[space.sentence % len(palette)].tolist()
        marker = dict(color=colours)
    else:
        hover = labels
        marker = dict(
            color=(space.position + 1).astype(np.float32),  # tokens counted from 1
            colorscale="Plasma",
            colorbar=dict(title=colour_title, x=1.02),
        )
    fig = go.Figure()
    q = space.queries[space.query]
    top = space.top_weights.max(initial=0.0) or 1.0
    for key, weight in zip(space.top_keys, space.top_weights, strict=True):
        k = space.keys[key]
        fig.add_trace(
            go.Scatter(
                x=np.array([q[0], k[0]], dtype=np.float32),
                y=np.array([q[1], k[1]], dtype=np.float32),
                mode="lines",
                line=dict(color=HIGHLIGHT, width=1 + 9 * float(weight) / top),
                opacity=0.7,
                hovertemplate=f"{labels[space.query]} → {labels[key]}<br>a = {weight:.3f}"
                "<extra></extra>",
                showlegend=False,
            )
        )
    for points, name, symbol in (
        (space.queries, query_name, "circle"),
        (space.keys, key_name, "diamond"),
    ):
        fig.add_trace(
            go.Scatter(
                x=points[:, 0].astype(np.float32),
                y=points[:, 1].astype(np.float32),
                mode="markers",
                name=name,
                text=hover,
                hovertemplate=f"{name} %{{text}}<extra></extra>",
                marker=dict(symbol=symbol, size=10, line=dict(width=1, color="#333"), **marker),
            )
        )
        marker = {k: v for k, v in marker.items() if k != "colorbar"}
    fig.add_trace(
        go.Scatter(
            x=np.array([q[0]], dtype=np.float32),
            y=np.array([q[1]], dtype=np.float32),
            mode="markers",
            marker=dict(symbol="circle-open", size=20, line=dict(width=3), color=HIGHLIGHT),
            hoverinfo="skip",
            showlegend=False,
        )
    )
    for s, name in enumerate(sentence_names or []):  # legend entries only, no points
        fig.add_trace(
            go.Scatter(
                x=[None],
                y=[None],
                mode="markers",
                name=name,
                marker=dict(
                    symbol="square", size=10, color=SENTENCE_COLOURS[s % len(SENTENCE_COLOURS)]
                ),
            )
        )
    fig.update_layout(
        title=left_title(title),
        height=560,
        margin=dict(l=10, r=10, t=60, b=10),
        legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0),
        plot_bgcolor="white",
    )
    fig.update_xaxes(
        title=x_title, zeroline=True, zerolinecolor="#ccc", gridcolor="#eee", automargin=True
    )
    fig.update_yaxes(
        title=y_title,
        zeroline=True,
        zerolinecolor="#ccc",
        gridcolor="#eee",
        scaleanchor="x",
        automargin=True,
    )
    return fig
