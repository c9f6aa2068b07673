"""Figures of the equivariance lesson (S7): A(X), A(PX) beside P A Pᵀ, and f(PX) − P f(X).

Matrices go out as float32 heat maps; words shown (titles) are passed in by the caller.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..text import is_wide, token_labels
from .maps import TICK_LABELS_MAX_N, colour_bar, map_trace, pairs
from .raster import COLORSCALE

DIVERGING = "RdBu_r"


TICK_PX = 12  # the tokens of three maps side by side, each about 85 px wide on a desk
STACKED_TICK_PX = 20  # stacked, the tokens at a projector's 20 px, as its other maps
STACKED_MAP_PX = 300  # each stacked map's height: about square in a projector's column
PANEL_TITLE_PX = 40  # a panel's title above its map, with room between it and the labels


def attention_triplet(
    A: np.ndarray,
    A_P: np.ndarray,
    PAPt: np.ndarray,
    tokens: list[str],
    perm_tokens: list[str],
    titles: tuple[str, str, str],
    *,
    height: int = 420,
    stacked: bool = False,
) -> go.Figure:
    """Three (N, N) weight maps on one colour scale [0, largest weight].

    A(X) is labelled by ``tokens``; A(PX) and P A Pᵀ by the permuted ``perm_tokens``,
    so the last two are equal exactly when attention is permutation-equivariant.
    Side by side, ``height`` high; ``stacked``, one under another (a projector's column
    is too narrow for three at its type size), each map labelling its rows and the figure
    as tall as the maps and their labels need.
    """
    N = len(tokens)
    show = N <= TICK_LABELS_MAX_N // 2
    rows, cols = (3, 1) if stacked else (1, 3)
    fig = make_subplots(rows=rows, cols=cols, subplot_titles=titles)
    tick_px = STACKED_TICK_PX if stacked else TICK_PX
    slots = np.arange(1, N + 1)  # numbered from 1, as the page numbers the tokens
    for k, (z, toks) in enumerate(((A, tokens), (A_P, perm_tokens), (PAPt, perm_tokens))):
        labels = token_labels(toks)
        hover = pairs(labels, labels)
        at = dict(row=k + 1, col=1) if stacked else dict(row=1, col=k + 1)
        fig.add_trace(
            map_trace(z, x=slots, y=slots, coloraxis="coloraxis", hover=hover, name=titles[k]),
            **at,
        )
        ticks = dict(tickmode="array", tickvals=slots, ticktext=labels) if show else {}
        fig.update_xaxes(showticklabels=show, tickfont_size=tick_px, **at, **ticks)
        fig.update_yaxes(  # A(PX)'s rows are the permuted tokens: named again, not A(X)'s;
            # side by side, P A Pᵀ's rows are A(PX)'s, beside it
            showticklabels=show and (stacked or k < 2),
            tickfont_size=tick_px,
            autorange="reversed",
            **at,
            **ticks,
        )
    top = float(max(np.max(A), np.max(A_P), np.max(PAPt)))
    fig.update_layout(coloraxis=dict(colorscale=COLORSCALE, cmin=0.0, cmax=top))
    if stacked:
        # columns of the widest label as shown: a token's tags are shown, not applied
        shown = token_labels(tokens + perm_tokens, escape=False)
        longest = max(sum(2 if is_wide(c) else 1 for c in w) for w in shown)
        _stack(fig, longest if show else 0)
    else:
        _side_by_side(fig, show, height)
    return fig


def _side_by_side(fig: go.Figure, show: bool, height: int) -> None:
    """The three maps in a row, room for A(PX)'s row labels between the first two; the
    last two sit close."""
    gaps = (0.16 if show else 0.04, 0.03)
    width = (1 - sum(gaps)) / 3
    starts = (0.0, width + gaps[0], 2 * width + sum(gaps))
    for k, x0 in enumerate(starts):
        fig.update_xaxes(domain=[x0, x0 + width], row=1, col=k + 1)
        fig.layout.annotations[k].x = x0 + width / 2  # its title, over it
    fig.update_layout(height=height, margin=dict(l=90, r=10, t=40, b=90))


def _stack(fig: go.Figure, longest: int) -> None:
    """The three maps one under another, ``longest`` the widest token label's columns (0
    without labels): under each map its turned column labels, then the next map's title.
    The colour bar stands beside the first map; the last map's labels fill the foot."""
    labels = round(longest * 0.55 * STACKED_TICK_PX) + 12  # about half an em a column
    row = PANEL_TITLE_PX + STACKED_MAP_PX + labels  # (px)
    height = 3 * row
    plot = height - PANEL_TITLE_PX - labels  # the plot area, between the margins (px)
    for k in range(3):
        y1 = 1 - k * row / plot  # the map's top, a share of the plot area
        y0 = y1 - STACKED_MAP_PX / plot
        fig.update_yaxes(domain=[max(y0, 0.0), y1], row=k + 1, col=1)
        fig.layout.annotations[k].update(y=y1, font_size=STACKED_TICK_PX)  # its title
    fig.update_layout(
        coloraxis_colorbar=dict(y=1, yanchor="top", len=STACKED_MAP_PX / plot),
        height=height,
        margin=dict(l=10, r=10, t=PANEL_TITLE_PX, b=labels),
    )
    fig.update_yaxes(automargin=True)  # the rows' labels widen the left margin


def difference_map(
    diff: np.ndarray,
    perm_tokens: list[str],
    *,
    scale: float,
    note: str = "",
    title: str = "",
    x_title: str = "",
    bar_title: str = "",
    dim_name: str = "dim",
    height: int = 420,
) -> go.Figure:
    """f(PX) − P f(X) relative to the outputs, Δ / ``scale`` with ``scale`` = max|f(X)|, as an
    (N, W) heat map on a diverging scale of at least ±1: a difference as large as the outputs
    is a deep colour, one at rounding level (1e-7 of them) is white. ``note`` (e.g. "rounding
    only") is written across the map.

    Rows are the tokens of PX, columns the output dimensions 1 … W (``dim_name`` on hover,
    with the cell's Δ / max|f|); ``bar_title`` names the colour bar's quantity.
    """
    diff = np.asarray(diff, dtype=np.float32)
    scale = float(scale) if scale > 0 else 1.0  # f = 0 everywhere: Δ on its own scale
    rel = diff / np.float32(scale)  # (N, W)
    lim = max(1.0, float(np.abs(rel).max()))
    labels = token_labels(perm_tokens)
    fig = go.Figure(
        map_trace(
            rel,
            zmin=-lim,
            zmax=lim,
            colorscale=DIVERGING,
            x=np.arange(1, diff.shape[1] + 1),
            y=np.arange(1, len(labels) + 1),
            hover=np.repeat(np.array(labels, dtype=object)[:, None], diff.shape[1], 1),
            template=f"%{{customdata}}, {dim_name} %{{x}}<br>%{{z:.2e}}<extra></extra>",
            bar=colour_bar(title=bar_title, exponentformat="e"),
        )
    )
    show = len(labels) <= TICK_LABELS_MAX_N
    fig.update_yaxes(
        autorange="reversed",
        **(
            dict(tickmode="array", tickvals=np.arange(1, len(labels) + 1), ticktext=labels)
            if show
            else {}
        ),
    )
    fig.update_xaxes(title=x_title)
    if note:  # across the map, readable from the back of a room
        fig.add_annotation(
            text=note,
            xref="paper",
            yref="paper",
            x=0.5,
            y=0.5,
            showarrow=False,
            font=dict(size=20, color="#222"),
            bgcolor="rgba(255, 255, 255, 0.85)",
            bordercolor="#888",
            borderpad=6,
        )
    fig.update_layout(title=title, height=height, margin=dict(l=90, r=10, t=80, b=40))
    return fig


def permutation_matrix(
    perm: np.ndarray, tokens: list[str], *, title: str = "", height: int = 400
) -> go.Figure:
    """P = I[perm] as a 0/1 map: row i (new slot) has its 1 in column perm[i] (old slot).

    Rows and columns are numbered 1 … N, as the page numbers the tokens.
    """
    N = len(perm)
    P = np.eye(N, dtype=np.float32)[perm]  # (N, N)
    slots = np.arange(1, N + 1)
    fig = go.Figure(
        map_trace(
            P,
            x=slots,
            y=slots,
            zmin=0,
            zmax=1,
            colorscale="Greys",
            showscale=False,
            template="%{y} ← %{x}<extra></extra>",
        )
    )
    perm_tokens = [tokens[k] for k in perm]
    show = N <= TICK_LABELS_MAX_N // 2
    if show:
        fig.update_xaxes(tickmode="array", tickvals=slots, ticktext=token_labels(tokens))
        fig.update_yaxes(tickmode="array", tickvals=slots, ticktext=token_labels(perm_tokens))
    fig.update_xaxes(zeroline=False, showgrid=False)  # slots start at 1: no line at 0
    fig.update_yaxes(autorange="reversed", scaleanchor="x", zeroline=False, showgrid=False)
    fig.update_layout(title=title, height=height, margin=dict(l=90, r=10, t=50, b=90))
    return fig
