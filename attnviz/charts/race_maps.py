"""The training race's maps: every head of both models on one probe sequence, layers down
and heads across, the models side by side, drawn as one heat map per model."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from ..text import columns
from .maps import colour_bar, map_trace, pairs

GAP = 1  # empty cells between two maps of the grid


def tile_origin(layer: int, head: int, part: int, n: int, H: int) -> tuple[int, int]:
    """(row, column) of map (layer, head) of model ``part`` (0 = left) on the grid canvas."""
    return layer * (n + GAP), part * (H * (n + GAP) + GAP) + head * (n + GAP)


FONT_PX = 12  # the labels' type size on a desk
BAR_PX = 80  # the colour bar beside the maps, with its tick labels


def margin(font_px: int = FONT_PX) -> dict[str, int]:
    """px around the maps: the layer numbers left, the models' names and head numbers above,
    in proportion to their type size."""
    grow = font_px / FONT_PX
    return dict(l=round(30 * grow), r=10, t=round(46 * grow), b=10)


def maps(
    weights: Mapping[str, np.ndarray | None],
    tokens: Sequence[str],
    *,
    names: dict[str, str],
    head_label: str,
    layer_head: str,
    dead_text: str,
    marks: dict[float, str] | None = None,
    width_px: int = 560,
    font_px: int = FONT_PX,
) -> go.Figure:
    """Each model's maps (L, H, n, n), layers down and heads across, the models side by side.

    One heat map trace per model on a shared canvas, NaN between the maps (cheap to draw,
    and hoverable); rows are queries, columns keys, both labelled ``tokens`` (e.g. "1:4").
    A model given None (diverged) leaves its half empty under ``dead_text``. The maps stay
    square; ``width_px`` (the figure's width on screen) and a cap on the height size them;
    the labels are set at ``font_px`` (a projector wants 20). ``head_label`` heads the
    columns ("head"); ``layer_head`` names a map in its hover text ("layer {l}, head {h}").
    """
    parts = list(weights)
    L, H, n, _ = next(w for w in weights.values() if w is not None).shape
    rows = L * (n + GAP) - GAP
    cols = len(parts) * (H * (n + GAP) + GAP) - 2 * GAP
    edge, grow = margin(font_px), font_px / FONT_PX
    name_shift, head_shift = round(28 * grow), round(10 * grow)  # px above the maps' top
    plot_px = width_px - edge["l"] - edge["r"] - BAR_PX  # the maps' own width
    cell = min(760 / rows, plot_px / (cols + 1))  # px per cell, the maps square
    widest = 0.5 * font_px * columns(f"{head_label} {H}") + 8  # px, with a gap either side
    named = n * cell >= widest  # room for "head h" above each map, else its number
    heads = (lambda h: f"{head_label} {h + 1}") if named else (lambda h: f"{h + 1}")
    pair = pairs(tokens, tokens)
    bar = colour_bar(0.0, 1.0, marks, len=0.8)
    fig = go.Figure()
    notes = [  # layer numbers left of the rows, head numbers above the columns
        dict(x=-0.6, y=layer * (n + GAP) + (n - 1) / 2, text=f"{layer + 1}", xanchor="right")
        for layer in range(L)
    ]
    for p, norm in enumerate(parts):
        w = weights[norm]
        z = np.full((rows, cols), np.nan, np.float32)
        hover = np.full((rows, cols), "", dtype=object)
        for layer in range(L):
            for head in range(H):
                r, c = tile_origin(layer, head, p, n, H)
                where = layer_head.format(l=layer + 1, h=head + 1) + "<br>"
                hover[r : r + n, c : c + n] = where + pair
                if w is not None:
                    z[r : r + n, c : c + n] = w[layer, head]
        middle = tile_origin(0, 0, p, n, H)[1] + (H * (n + GAP) - GAP - 1) / 2
        notes.append(dict(x=middle, y=-0.5, text=f"<b>{names[norm]}</b>", yshift=name_shift))
        if w is None:
            notes.append(dict(x=middle, y=(rows - 1) / 2, text=dead_text, font_size=font_px + 4))
        for h in range(H):
            x = tile_origin(0, h, p, n, H)[1] + (n - 1) / 2
            notes.append(dict(x=x, y=-0.5, text=heads(h), yshift=head_shift))
        fig.add_trace(
            map_trace(
                z,
                showscale=p == 0,
                bar=bar,
                hover=hover,
                hoverongaps=False,
                name=names[norm],
                template="%{customdata}<br>%{z:.3f}<extra>%{fullData.name}</extra>",
            )
        )
    fig.update_layout(
        annotations=[{"showarrow": False, "font_size": font_px, **a} for a in notes],
        height=int(rows * cell) + edge["t"] + edge["b"],
        margin=edge,
        plot_bgcolor="rgba(0,0,0,0)",
    )
    fig.update_xaxes(visible=False, range=[-1.5, cols - 0.5], constrain="domain")
    fig.update_yaxes(  # in a narrower column than width_px, the room left is at the foot
        visible=False,
        range=[rows - 0.5, -0.5],  # reversed: layer 1 on top (an autorange grows on resizes)
        scaleanchor="x",
        constrain="domain",
        constraintoward="top",
    )
    return fig
