"""Many heads' maps in one figure: a hoverable heat map of tiles while small, one
pre-coloured PNG mosaic when large.

Payload and drawing time grow with H·N²: small grids are Plotly heat maps with float32
arrays and hover; large grids are pre-coloured PNG images.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..text import columns, token_labels
from .maps import colour_bar, map_trace, pairs
from .raster import colour, png_bytes, png_uri, pool

GRID_HEATMAP_MAX_CELLS = 8 * 32 * 32  # above this a grid is drawn as one image
NARROW_PX = 340  # the narrowest a figure is drawn: a phone's 390 px less the page's margins
TITLE_PX, MIN_TITLE_PX = 12, 9  # the heads' titles' type, and the least it is made to fit
EM_PER_COLUMN = 0.55  # a column of attnviz.text.columns, in em: a little over half, to be safe


def fitted_titles(titles: list[str], cols: int, px: float = TITLE_PX) -> tuple[list[str], float]:
    """The heads' titles and their type size, such that no two run into each other in a
    figure of ``cols`` tiles a row as narrow as NARROW_PX (a phone): a title has its tile's
    column, less a gap. Smaller type where needed, down to MIN_TITLE_PX; below that the titles
    are short, "h1" … "hH", in any language."""

    def size(names: list[str]) -> float:
        room = (NARROW_PX - 20) / cols - 6  # the figure's side margins, and a gap
        return min(px, room / (EM_PER_COLUMN * max(columns(t) for t in names)))

    if size(titles) >= MIN_TITLE_PX:
        return titles, size(titles)
    short = [f"h{h}" for h in range(1, len(titles) + 1)]
    return short, size(short)


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
    The height fits square tiles into a plot about ``width_px`` wide. Heads are titled
    "head 1" … "head H" unless ``titles`` says otherwise: the chapter counts h from 1.
    """
    weights = np.asarray(weights, dtype=np.float32)
    H, n_q, n_k = weights.shape
    titles = titles or [f"head {h}" for h in range(1, H + 1)]
    cols = min(cols, H)
    rows = -(-H // cols)
    shown, title_px = fitted_titles(titles, cols)  # hover names the head in full
    if H * n_q * n_k > GRID_HEATMAP_MAX_CELLS:
        return _mosaic(weights, shown, title_px, cols, rows, zmin, zmax, width_px)
    # One heat map trace holding every head, NaN between tiles: far cheaper to build and
    # draw than one subplot per head, and still hoverable.
    gap = 1 + n_k // 8
    canvas = np.full((rows * (n_q + gap), cols * (n_k + gap)), np.nan, dtype=np.float32)
    hover = np.full(canvas.shape, "", dtype=object)
    labels = token_labels(tokens)
    pair = pairs(labels[:n_q], labels[:n_k])
    for h in range(H):
        r, c = divmod(h, cols)
        y0, x0 = r * (n_q + gap), c * (n_k + gap)
        canvas[y0 : y0 + n_q, x0 : x0 + n_k] = weights[h]
        hover[y0 : y0 + n_q, x0 : x0 + n_k] = titles[h] + "<br>" + pair
    bar = colour_bar(zmin, zmax, marks)
    trace = map_trace(canvas, zmin=zmin, zmax=zmax, hover=hover, bar=bar, hoverongaps=False)
    fig = go.Figure(trace)
    fig.update_layout(
        annotations=[
            dict(
                x=(h % cols) * (n_k + gap) + (n_k - 1) / 2,
                y=(h // cols) * (n_q + gap) - 0.5,
                text=shown[h],
                showarrow=False,
                yshift=10,
                font_size=title_px,
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
    title_px: float,
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
                font_size=min(11, title_px),
            )
            for h in range(len(maps))
        ],
        xaxis=dict(visible=False),
        yaxis=dict(visible=False, autorange="reversed", scaleanchor="x"),
        height=int(width_px * rows * (n_q + gap_y) / (cols * (n_k + gap))) + 20,
        margin=dict(l=10, r=10, t=10, b=10),
    )
    return fig
