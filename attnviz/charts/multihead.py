"""The multi-head page's pictures (the real-model page draws its heads with the same ones).

``head_tiles``: one layer's H maps as one pre-coloured image (a :class:`Mosaic`) that the
app shows as clickable tiles.
One weight followed through its formula: ``terms_chart`` (the summands of s_ij: which
dimensions carry the score), ``row_chart`` (the row before and after softmax),
``values_chart`` (v_j, a_ij v_j and the head's output row). ``qk_chart``: a head's
queries and keys in two shared axes, one trace per marker kind at any N.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from ..qkspace import QKSpace
from ..stepthrough import WeightSteps
from ..text import token_labels
from .maps import TICK_LABELS_MAX_N
from .raster import colour, pool
from .real_model import Mosaic

TILE_COLS = (4, 8)  # tiles per row: 4 up to 8 heads, else 8
TITLE_PX = 18  # height on screen of the band for each tile's title
TITLE_PX_LARGE = 34  # the same for presentation mode's larger titles, in a narrower column
HIGHLIGHT = "#e02020"  # the picked cell, key and query
POSITIVE, NEGATIVE, MUTED = "#1f77b4", "#d62728", "#b0b0b0"


def _title(text: str) -> dict:
    """A chart title on the left, small enough for a long sentence."""
    return dict(text=text, x=0.01, xanchor="left", font_size=14)


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


def tile_cols(H: int) -> int:
    """Tiles per row of a grid of H heads."""
    return min(H, TILE_COLS[0] if H <= 8 else TILE_COLS[1])


def head_tiles(
    weights: np.ndarray,
    *,
    zmin: float = 0.0,
    zmax: float = 1.0,
    width_px: int = 520,
    title_px: int = TITLE_PX,
) -> Mosaic:
    """(H, N, N) maps → a :class:`Mosaic` of ``tile_cols(H)`` tiles per row, Viridis from
    ``zmin`` to ``zmax``, drawn about ``width_px`` wide.

    Maps wider than a tile on screen are max-pooled (a sharp peak stays visible); small
    ones are enlarged by whole pixels, so that the gaps stay thin at any N. A band above
    each row leaves ~``title_px`` on screen for the tiles' titles; tiles past H are white.
    """
    W = np.asarray(weights, dtype=np.float32)
    H = W.shape[0]
    cols = tile_cols(H)
    rows = -(-H // cols)
    target = max(8, width_px // cols)  # pixels of one tile on screen
    maps = [pool(w, target) for w in W]
    n = maps[0].shape[0]
    up = max(1, target // n)
    cell = n * up
    gap = max(2, cell // 16)
    band = -(-title_px * (cols * (cell + gap) - gap) // width_px)
    step, step_y = cell + gap, band + cell + gap  # as Mosaic.step, Mosaic.step_y
    canvas = np.full((rows * step_y - gap, cols * step - gap, 3), 255, dtype=np.uint8)
    for h, w in enumerate(maps):
        r, c = divmod(h, cols)
        y, x = band + r * step_y, c * step
        rgb = colour(w, zmin, zmax).repeat(up, axis=0).repeat(up, axis=1)  # (cell, cell, 3)
        canvas[y : y + cell, x : x + cell] = rgb
    return Mosaic(canvas, rows, cols, cell, gap, band)


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
        title=_title(title),
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
        title=_title(title),
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
        title=_title(title),
        height=340,
        margin=dict(l=10, r=10, t=70, b=10),
        legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0),
        hovermode="x unified",
    )
    fig.update_xaxes(title=x_title, automargin=True)
    fig.update_yaxes(zeroline=True, zerolinecolor="#888", automargin=True)
    return fig


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
        title=_title(title),
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
