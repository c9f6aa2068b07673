"""Attention maps: one head as a hoverable heat map, many heads as one grid figure.

Payload and drawing time grow with H·N²: small maps are Plotly
heat maps with float32 arrays and hover; large grids are pre-coloured PNG images.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from ..text import token_labels
from .raster import COLORSCALE, colour, png_bytes, png_uri, pool

HOVER_MAX_N = 64  # above this, per-cell token labels cost more than they help
GRID_HEATMAP_MAX_CELLS = 8 * 32 * 32  # above this a grid is drawn as one image
TICK_LABELS_MAX_N = 40
# a legend at the figure's foot, in room of its own under the axis titles (placed in the
# plot's terms, at 20 px it lay on an axis title, or under the chart's title and a gridline)
LEGEND_AT_FOOT = dict(orientation="h", x=0, xanchor="left", yref="container", y=0, yanchor="bottom")


def counted(n: int, most: int = 8) -> dict:
    """An axis counting 1 … n: ticks at whole numbers only, 1, 2 or 5 times a power of ten
    apart, at most about ``most`` of them (Plotly's own put 0.5 and 1.5 on a short axis)."""
    steps = (k * 10**e for e in range(7) for k in (1, 2, 5))
    step = next(s for s in steps if n / s <= most)
    return dict(tickmode="linear", tick0=1 if step == 1 else step, dtick=step)


def colour_bar(zmin: float | None, zmax: float | None, marks: dict[float, str] | None) -> dict:
    """A colour bar with ticks at its ends and at each marked value (e.g. {1/N: "1/N"})."""
    if not marks or zmin is None or zmax is None:
        return {}
    values = sorted({float(zmin), float(zmax), *(v for v in marks if zmin <= v <= zmax)})
    text = [marks.get(v) or f"{v:.3g}" for v in values]
    return {"colorbar": {"tickmode": "array", "tickvals": values, "ticktext": text}}


def heatmap(
    z: np.ndarray,
    x_tokens: list[str],
    y_tokens: list[str],
    *,
    title: str = "",
    x_title: str = "",
    y_title: str = "",
    zmin: float | None = 0.0,
    zmax: float | None = 1.0,
    colorscale: str = COLORSCALE,
    height: int = 480,
    x_positions: Sequence[int] | None = None,
    y_positions: Sequence[int] | None = None,
    marks: dict[float, str] | None = None,
) -> go.Figure:
    """One matrix (rows = queries, columns = keys) with token labels and value on hover.

    ``x_positions`` / ``y_positions`` (from 0) number the tokens when some were left out
    (e.g. a model's special tokens), so labels and hover keep each token's place in the
    sentence; the axes count from 1.
    """
    z = np.asarray(z, dtype=np.float32)
    n_y, n_x = z.shape
    xs = np.arange(n_x) if x_positions is None else np.asarray(x_positions)
    ys = np.arange(n_y) if y_positions is None else np.asarray(y_positions)
    xl, yl = token_labels(x_tokens, xs), token_labels(y_tokens, ys)
    xs, ys = xs + 1, ys + 1  # the axes count from 1, as the labels and the chapter do
    if max(n_x, n_y) <= HOVER_MAX_N:
        hover = dict(
            customdata=np.array([[f"{y} → {x}" for x in xl] for y in yl]),
            hovertemplate="%{customdata}<br>%{z:.4f}<extra></extra>",
        )
    else:
        hover = dict(hovertemplate="%{y} → %{x}<br>%{z:.4f}<extra></extra>")
    trace = go.Heatmap(
        z=z,
        x=xs,
        y=ys,
        zmin=zmin,
        zmax=zmax,
        colorscale=colorscale,
        **colour_bar(zmin, zmax, marks),
        **hover,
    )
    labelled = max(n_x, n_y) <= TICK_LABELS_MAX_N
    x_ticks = dict(tickmode="array", tickvals=xs, ticktext=xl) if labelled else {}
    y_ticks = dict(tickmode="array", tickvals=ys, ticktext=yl) if labelled else {}
    layout = dict(  # one Figure call: separate update_* calls cost more than the figure
        title=title,
        height=height,
        margin=dict(l=10, r=10, t=50, b=10),
        xaxis=dict(title=x_title, automargin=True, **x_ticks),
        yaxis=dict(title=y_title, autorange="reversed", automargin=True, **y_ticks),
    )
    return go.Figure(trace, layout)


def head_grid(
    weights: np.ndarray,
    tokens: list[str],
    *,
    titles: list[str] | None = None,
    cols: int = 4,
    zmin: float = 0.0,
    zmax: float = 1.0,
    width_px: int = 520,
    marks: dict[float, str] | None = None,
) -> go.Figure:
    """All heads' maps (H, N_q, N_k) in one figure, ``cols`` per row.

    Small grids are heat maps with hover; large ones one PNG mosaic (fast to send and draw).
    The height fits square tiles into a plot about ``width_px`` wide.
    """
    weights = np.asarray(weights, dtype=np.float32)
    H, n_q, n_k = weights.shape
    titles = titles or [f"head {h}" for h in range(H)]
    cols = min(cols, H)
    rows = -(-H // cols)
    if H * n_q * n_k > GRID_HEATMAP_MAX_CELLS:
        return _mosaic(weights, titles, cols, rows, zmin, zmax, width_px)
    # One heat map trace holding every head, NaN between tiles: far cheaper to build and
    # draw than one subplot per head, and still hoverable.
    gap = 1 + n_k // 8
    canvas = np.full((rows * (n_q + gap), cols * (n_k + gap)), np.nan, dtype=np.float32)
    hover = np.full(canvas.shape, "", dtype=object)
    labels = token_labels(tokens)
    pair = np.array([[f"{q} → {k}" for k in labels[:n_k]] for q in labels[:n_q]], dtype=object)
    for h in range(H):
        r, c = divmod(h, cols)
        y0, x0 = r * (n_q + gap), c * (n_k + gap)
        canvas[y0 : y0 + n_q, x0 : x0 + n_k] = weights[h]
        hover[y0 : y0 + n_q, x0 : x0 + n_k] = titles[h] + "<br>" + pair
    fig = go.Figure(
        go.Heatmap(
            z=canvas,
            zmin=zmin,
            zmax=zmax,
            colorscale=COLORSCALE,
            **colour_bar(zmin, zmax, marks),
            customdata=hover,
            hoverongaps=False,
            hovertemplate="%{customdata}<br>%{z:.4f}<extra></extra>",
        )
    )
    fig.update_layout(
        annotations=[
            dict(
                x=(h % cols) * (n_k + gap) + (n_k - 1) / 2,
                y=(h // cols) * (n_q + gap) - 0.5,
                text=titles[h],
                showarrow=False,
                yshift=10,
                font_size=12,
            )
            for h in range(H)
        ]
    )
    fig.update_xaxes(visible=False, constrain="domain")
    fig.update_yaxes(visible=False, autorange="reversed", scaleanchor="x")
    fig.update_layout(
        height=int(width_px * rows / cols) + 60,
        margin=dict(l=10, r=10, t=40, b=10),
        plot_bgcolor="white",
    )
    return fig


def _mosaic(
    weights: np.ndarray,
    titles: list[str],
    cols: int,
    rows: int,
    zmin: float,
    zmax: float,
    width_px: int,
) -> go.Figure:
    """Every head as one pre-coloured PNG; maps wider than a tile on screen are max-pooled."""
    tile = max(8, width_px // cols)
    maps = [pool(w, tile) for w in weights]
    n_q, n_k = maps[0].shape
    gap = max(2, n_k // 16)
    gap_y = max(gap, -(-18 * n_q // tile))  # room for a title: ~18 px on screen
    canvas = np.full((rows * (n_q + gap_y), cols * (n_k + gap), 3), 255, dtype=np.uint8)
    for h, m in enumerate(maps):
        r, c = divmod(h, cols)
        y0, x0 = r * (n_q + gap_y) + gap_y, c * (n_k + gap)
        canvas[y0 : y0 + n_q, x0 : x0 + n_k] = colour(m, zmin, zmax)
    fig = go.Figure(go.Image(source=png_uri(png_bytes(canvas)), hoverinfo="skip"))
    fig.update_layout(
        annotations=[
            dict(
                x=(h % cols) * (n_k + gap) + n_k / 2,
                y=(h // cols) * (n_q + gap_y) + gap_y / 2,
                text=titles[h],
                showarrow=False,
                font_size=11,
            )
            for h in range(len(maps))
        ],
        xaxis=dict(visible=False),
        yaxis=dict(visible=False, autorange="reversed", scaleanchor="x"),
        height=int(width_px * rows * (n_q + gap_y) / (cols * (n_k + gap))) + 20,
        margin=dict(l=10, r=10, t=10, b=10),
    )
    return fig
