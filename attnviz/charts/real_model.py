"""A whole model's attention at a glance, and one head as BertViz-style lines.

``mosaic`` paints every layer × head map into ONE pre-coloured image (the browser draws
one picture, not L·H heat maps); ``model_grid`` shows it with Plotly,
with an invisible marker per cell so a click can pick a head. ``lines_view`` links each
query token (left) to the keys (right) with lines whose opacity is the weight, like
BertViz's head view.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from .raster import colour, png_bytes, png_uri, pool

CELL_MAX_PX = 96  # larger maps are max-pooled to at most this many pixels per side
LINE_LEVELS = 8  # opacity steps in the lines view (one trace per step)
LINE_MIN_WEIGHT = 0.02  # lighter weights draw no line


@dataclass(frozen=True)
class Mosaic:
    """Maps as tiles of one RGB image: every layer (rows) × head (columns) of a model, or
    the H heads of one layer in rows of ``cols``.

    Cell (r, c) is ``rgb[y : y + cell, c * step : c * step + cell]`` with
    ``y = band + r * step_y``; white gaps of ``gap`` pixels separate the cells, and a white
    band of ``band`` pixels above each row leaves room for the tiles' titles.
    """

    rgb: np.ndarray  # (rows · step_y − gap, cols · step − gap, 3) uint8
    rows: int
    cols: int
    cell: int
    gap: int
    band: int = 0

    @property
    def step(self) -> int:
        return self.cell + self.gap

    @property
    def step_y(self) -> int:
        return self.band + self.cell + self.gap

    def tile(self, r: int, c: int) -> np.ndarray:
        """(cell, cell, 3) the pixels of tile (r, c)."""
        y, x = self.band + r * self.step_y, c * self.step
        return self.rgb[y : y + self.cell, x : x + self.cell]

    def png(self) -> bytes:
        return png_bytes(self.rgb, compress_level=3)  # cached per text by the app


def mosaic(attentions: np.ndarray, zmax: float = 1.0, causal: bool = False) -> Mosaic:
    """(L, H, N, N) weights → a :class:`Mosaic`, Viridis from 0 to ``zmax``; maps larger than
    ``CELL_MAX_PX`` are max-pooled so a sharp peak stays visible. ``causal``: the cells
    above the diagonal (key after query), which the mask forbids, are drawn masked (grey)."""
    A = np.asarray(attentions, dtype=np.float32)
    L, H, N, _ = A.shape
    if causal:
        A = np.where(np.triu(np.ones((N, N), dtype=bool), 1), np.nan, A)
    n = -(-N // -(-N // CELL_MAX_PX))  # pixels per cell side after pooling
    gap = max(2, n // 12)
    step = n + gap
    canvas = np.full((L * step - gap, H * step - gap, 3), 255, dtype=np.uint8)
    for layer in range(L):
        for h in range(H):
            y0, x0 = layer * step, h * step
            canvas[y0 : y0 + n, x0 : x0 + n] = colour(pool(A[layer, h], n), 0.0, zmax)
    return Mosaic(canvas, L, H, n, gap)


def model_grid(
    attentions: np.ndarray,
    *,
    selected: tuple[int, int] | None = None,
    zmax: float = 1.0,
    layer_label: str = "layer {l}",
    head_label: str = "head {h}",
    height: int | None = None,
) -> go.Figure:
    """Every head of every layer, (L, H, N, N), as one L × H mosaic image (Plotly, for
    notebooks; the app draws the same :func:`mosaic` as plain HTML).

    Rows are layers, columns heads; each cell is that head's map (rows = queries) on a
    Viridis scale from 0 to ``zmax``. ``selected`` (layer, head) is outlined in red. Both
    are indices from 0, as in ``attentions``; the labels and hover text count from 1.
    """
    m = mosaic(attentions, zmax)
    L, H, n, gap, step, canvas = m.rows, m.cols, m.cell, m.gap, m.step, m.rgb
    fig = go.Figure(go.Image(source=png_uri(png_bytes(canvas)), hoverinfo="skip"))
    ll, hh = np.meshgrid(np.arange(L), np.arange(H), indexing="ij")  # (L, H) each
    names = [
        f"{layer_label.format(l=a + 1)}, {head_label.format(h=b + 1)}"
        for a, b in zip(ll.ravel(), hh.ravel(), strict=True)
    ]
    fig.add_trace(
        go.Scatter(
            x=(hh.ravel() * step + n / 2).astype(np.float32),
            y=(ll.ravel() * step + n / 2).astype(np.float32),
            mode="markers",
            marker=dict(size=max(8, min(n, 40)), opacity=0, color="white"),
            customdata=np.stack([ll.ravel(), hh.ravel()], axis=1),
            text=names,
            hovertemplate="%{text}<extra></extra>",
            showlegend=False,
            name="heads",
        )
    )
    labels = [
        dict(
            x=h * step + n / 2, y=-gap, text=head_label.format(h=h + 1), yshift=6, yanchor="bottom"
        )
        for h in range(H)
    ] + [
        dict(x=-gap, y=layer * step + n / 2, text=layer_label.format(l=layer + 1), xanchor="right")
        for layer in range(L)
    ]
    fig.update_layout(annotations=[dict(a, showarrow=False, font_size=10) for a in labels])
    if selected is not None:
        layer, h = selected
        fig.add_shape(
            type="rect",
            x0=h * step - 1.5,
            x1=h * step + n + 0.5,
            y0=layer * step - 1.5,
            y1=layer * step + n + 0.5,
            line=dict(color="red", width=3),
        )
    fig.update_xaxes(visible=False, range=[-6 * gap - n / 2, H * step])
    fig.update_yaxes(visible=False, range=[L * step, -4 * gap])
    aspect = (L * step + 4 * gap) / (H * step + 6 * gap + n / 2)  # the image keeps square pixels
    fig.update_layout(
        height=height or int(40 + 800 * aspect),
        margin=dict(l=10, r=10, t=10, b=10),
        dragmode=False,
        plot_bgcolor="white",
        clickmode="event+select",
    )
    return fig


def lines_view(
    weights: np.ndarray,
    tokens: list[str],
    *,
    min_weight: float = LINE_MIN_WEIGHT,
    title: str = "",
    height: int | None = None,
) -> go.Figure:
    """Query tokens (left) joined to key tokens (right); line opacity ∝ weight.

    Weights below ``min_weight`` are not drawn. Lines are grouped into ``LINE_LEVELS``
    opacity steps, one Scatter trace each, with NaN breaks between segments.
    """
    W = np.asarray(weights, dtype=np.float32)
    N = W.shape[0]
    top = float(W.max()) or 1.0
    q, k = np.nonzero(min_weight <= W)
    level = np.minimum((W[q, k] / top * LINE_LEVELS).astype(int), LINE_LEVELS - 1)
    fig = go.Figure()
    for s in range(LINE_LEVELS):
        sel = level == s
        if not sel.any():
            continue
        m = int(sel.sum())
        xs = np.tile(np.array([0.0, 1.0, np.nan], dtype=np.float32), m)
        ys = np.stack([q[sel], k[sel], np.full(m, np.nan)], axis=1).astype(np.float32).ravel()
        share = (s + 1) / LINE_LEVELS
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=ys,
                mode="lines",
                hoverinfo="skip",
                showlegend=False,
                line=dict(color="rgb(31,119,180)", width=1 + 3 * share),
                opacity=share,
            )
        )
    lab = [html.escape(t) for t in tokens]
    out_w = W.sum(0) / N  # (N,) average weight each key receives
    for x, anchor, data in ((0.0, "left", W.max(1)), (1.0, "right", out_w)):
        fig.add_trace(
            go.Scatter(
                x=np.full(N, x, dtype=np.float32),
                y=np.arange(N, dtype=np.float32),
                mode="markers+text",
                text=lab,
                textposition=f"middle {anchor}",
                marker=dict(size=6, color="rgb(31,119,180)"),
                customdata=data.astype(np.float32),
                hovertemplate="%{text}: %{customdata:.3f}<extra></extra>",
                showlegend=False,
            )
        )
    fig.update_xaxes(visible=False, range=[-0.6, 1.6])
    fig.update_yaxes(visible=False, autorange="reversed")
    fig.update_layout(
        title=title,
        height=height or min(3000, max(300, 60 + 18 * N)),
        margin=dict(l=10, r=10, t=40, b=10),
        plot_bgcolor="white",
    )
    return fig
