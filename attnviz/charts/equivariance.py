"""Figures of the equivariance lesson (S7): A(X), A(PX) beside P A Pᵀ, and f(PX) − P f(X).

Matrices go out as float32 heat maps; words shown (titles) are passed in by the caller.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..text import token_labels
from .maps import TICK_LABELS_MAX_N, colour_bar, map_trace, pairs
from .raster import COLORSCALE

DIVERGING = "RdBu_r"


TICK_PX = 12  # the key tokens under each of the three maps


def attention_triplet(
    A: np.ndarray,
    A_P: np.ndarray,
    PAPt: np.ndarray,
    tokens: list[str],
    perm_tokens: list[str],
    titles: tuple[str, str, str],
    *,
    height: int = 420,
) -> go.Figure:
    """Three (N, N) weight maps side by side on one colour scale [0, largest weight].

    A(X) is labelled by ``tokens``; A(PX) and P A Pᵀ by the permuted ``perm_tokens``,
    so the last two are equal exactly when attention is permutation-equivariant.
    """
    N = len(tokens)
    show = N <= TICK_LABELS_MAX_N // 2
    fig = make_subplots(rows=1, cols=3, subplot_titles=titles)
    slots = np.arange(1, N + 1)  # numbered from 1, as the page numbers the tokens
    for k, (z, toks) in enumerate(((A, tokens), (A_P, perm_tokens), (PAPt, perm_tokens))):
        labels = token_labels(toks)
        hover = pairs(labels, labels)
        fig.add_trace(
            map_trace(z, x=slots, y=slots, coloraxis="coloraxis", hover=hover, name=titles[k]),
            row=1,
            col=k + 1,
        )
        ticks = dict(tickmode="array", tickvals=slots, ticktext=labels)
        fig.update_xaxes(  # three maps share the width: the turned labels keep 12 px, also
            # on a projector, whose 20 px would overlap in a map about 85 px wide
            showticklabels=show,
            tickfont_size=TICK_PX,
            row=1,
            col=k + 1,
            **(ticks if show else {}),
        )
        fig.update_yaxes(  # A(PX)'s rows are the permuted tokens: named again, not A(X)'s
            showticklabels=show and k < 2,  # P A Pᵀ's rows are A(PX)'s, beside it
            tickfont_size=TICK_PX,
            autorange="reversed",
            row=1,
            col=k + 1,
            **(ticks if show else {}),
        )
    # room for A(PX)'s row labels between the first two maps; the last two sit close
    gaps = (0.16 if show else 0.04, 0.03)
    width = (1 - sum(gaps)) / 3
    starts = (0.0, width + gaps[0], 2 * width + sum(gaps))
    for k, x0 in enumerate(starts):
        fig.update_xaxes(domain=[x0, x0 + width], row=1, col=k + 1)
        fig.layout.annotations[k].x = x0 + width / 2  # its title, over it
    top = float(max(np.max(A), np.max(A_P), np.max(PAPt)))
    fig.update_layout(
        coloraxis=dict(colorscale=COLORSCALE, cmin=0.0, cmax=top),
        height=height,
        margin=dict(l=90, r=10, t=40, b=90),
    )
    return fig


def difference_map(
    diff: np.ndarray,
    perm_tokens: list[str],
    *,
    title: str = "",
    x_title: str = "",
    dim_name: str = "dim",
    height: int = 420,
) -> go.Figure:
    """f(PX) − P f(X) as an (N, W) heat map on a symmetric diverging scale.

    Rows are the tokens of PX, columns the output dimensions 1 … W (``dim_name`` on hover).
    """
    diff = np.asarray(diff, dtype=np.float32)
    lim = float(max(np.abs(diff).max(), 1e-12))
    labels = token_labels(perm_tokens)
    fig = go.Figure(
        map_trace(
            diff,
            zmin=-lim,
            zmax=lim,
            colorscale=DIVERGING,
            x=np.arange(1, diff.shape[1] + 1),
            y=np.arange(1, len(labels) + 1),
            hover=np.repeat(np.array(labels, dtype=object)[:, None], diff.shape[1], 1),
            template=f"%{{customdata}}, {dim_name} %{{x}}<br>%{{z:.3e}}<extra></extra>",
            bar=colour_bar(exponentformat="e"),  # 2e-07, not the SI "200n" students misread
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
