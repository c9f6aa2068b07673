"""The training race: loss and accuracy per step, the probe's maps per layer and head for
post-LN and pre-LN side by side, and each head's pattern score against the step."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.colors import sample_colorscale
from plotly.subplots import make_subplots

from .depth_gradients import NORM_COLOURS
from .raster import COLORSCALE

GAP = 1  # empty cells between two maps of the grid
HEAD_DASHES = ("solid", "dot", "dash", "dashdot", "longdash", "longdashdot")


# under the panels, in rows: beside them the long names took half the width, squeezed the
# panels to about 120 px and, with a layer × head list, needed a scroll bar
LEGEND_BELOW = dict(orientation="h", x=0, xanchor="left", y=-0.32, yanchor="top")
LEGEND_PER_ROW = 3  # names "layer 1, head 1" a row holds in the narrowest column (~540 px)
LEGEND_ROW_PX = 30  # one legend row at presentation mode's 20 px type


def race(
    history: pd.DataFrame,
    *,
    names: dict[str, str],
    titles: tuple[str, str],
    x_title: str,
    mark: int | None = None,
    height: int = 400,
) -> go.Figure:
    """Loss (left) and accuracy (right) per step, one line per norm (columns step, norm, …).

    ``mark`` draws a vertical line at that step and a dot on each curve's value there.
    """
    fig = make_subplots(rows=1, cols=2, subplot_titles=titles)
    for norm, part in history.groupby("norm", sort=False):
        for col, value in ((1, "loss"), (2, "accuracy")):
            fig.add_trace(
                go.Scatter(
                    x=part["step"].to_numpy(),
                    name=names.get(norm, norm),
                    y=part[value].to_numpy(np.float32),
                    mode="lines",
                    line_color=NORM_COLOURS.get(norm),
                    showlegend=col == 1,
                    legendgroup=norm,
                ),
                row=1,
                col=col,
            )
    if mark is not None:
        at = history[history["step"] == mark]
        for col, value in ((1, "loss"), (2, "accuracy")):
            fig.add_vline(x=mark, line_width=1, line_dash="dot", line_color="#555", row=1, col=col)
            for norm, row in at.groupby("norm", sort=False):
                fig.add_trace(
                    go.Scatter(
                        x=row["step"].to_numpy(),
                        y=row[value].to_numpy(np.float32),
                        name=names.get(norm, norm),
                        mode="markers",
                        marker=dict(color=NORM_COLOURS.get(norm), size=10, line_width=1),
                        showlegend=False,
                        legendgroup=norm,
                        hovertemplate="%{x}: %{y:.3f}<extra>%{fullData.name}</extra>",
                    ),
                    row=1,
                    col=col,
                )
    fig.update_xaxes(title=x_title)
    fig.update_yaxes(range=[0, 1.02], row=1, col=2)
    fig.update_layout(height=height, margin=dict(l=60, r=10, t=40, b=40), legend=LEGEND_BELOW)
    return fig


def tile_origin(layer: int, head: int, part: int, n: int, H: int) -> tuple[int, int]:
    """(row, column) of map (layer, head) of model ``part`` (0 = left) on the grid canvas."""
    return layer * (n + GAP), part * (H * (n + GAP) + GAP) + head * (n + GAP)


MAPS_MARGIN = dict(l=30, r=10, t=56, b=10)  # px around the maps: layer numbers, titles
BAR_PX = 80  # the colour bar beside the maps, with its tick labels


def maps(
    weights: Mapping[str, np.ndarray | None],
    tokens: Sequence[str],
    *,
    names: dict[str, str],
    layer_label: str,
    head_label: str,
    dead_text: str,
    marks: dict[float, str] | None = None,
    width_px: int = 560,
) -> go.Figure:
    """Each model's maps (L, H, n, n), layers down and heads across, the models side by side.

    One heat map trace per model on a shared canvas, NaN between the maps (cheap to draw,
    and hoverable); rows are queries, columns keys, both labelled ``tokens`` (e.g. "1:4").
    A model given None (diverged) leaves its half empty under ``dead_text``. The maps stay
    square; ``width_px`` (the figure's width on screen) and a cap on the height size them.
    """
    parts = list(weights)
    L, H, n, _ = next(w for w in weights.values() if w is not None).shape
    rows = L * (n + GAP) - GAP
    cols = len(parts) * (H * (n + GAP) + GAP) - 2 * GAP
    plot_px = width_px - MAPS_MARGIN["l"] - MAPS_MARGIN["r"] - BAR_PX  # the maps' own width
    cell = min(760 / rows, plot_px / (cols + 1))  # px per cell, the maps square
    heads = (lambda h: f"{head_label} {h + 1}") if n * cell >= 64 else (lambda h: f"{h + 1}")
    pair = np.array([[f"{q} → {k}" for k in tokens] for q in tokens], dtype=object)
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
                where = f"{layer_label} {layer + 1}, {head_label} {head + 1}<br>"
                hover[r : r + n, c : c + n] = where + pair
                if w is not None:
                    z[r : r + n, c : c + n] = w[layer, head]
        middle = tile_origin(0, 0, p, n, H)[1] + (H * (n + GAP) - GAP - 1) / 2
        notes.append(dict(x=middle, y=-0.5, text=f"<b>{names[norm]}</b>", yshift=28))
        if w is None:
            notes.append(dict(x=middle, y=(rows - 1) / 2, text=dead_text, font_size=16))
        notes += [
            dict(x=tile_origin(0, h, p, n, H)[1] + (n - 1) / 2, y=-0.5, text=heads(h), yshift=10)
            for h in range(H)
        ]
        fig.add_trace(
            go.Heatmap(
                z=z,
                zmin=0.0,
                zmax=1.0,
                colorscale=COLORSCALE,
                showscale=p == 0,
                colorbar=_colour_bar(marks),
                customdata=hover,
                hoverongaps=False,
                name=names[norm],
                hovertemplate="%{customdata}<br>%{z:.3f}<extra>%{fullData.name}</extra>",
            )
        )
    fig.update_layout(
        annotations=[{"showarrow": False, "font_size": 12, **a} for a in notes],
        height=int(rows * cell) + MAPS_MARGIN["t"] + MAPS_MARGIN["b"],
        margin=MAPS_MARGIN,
        plot_bgcolor="rgba(0,0,0,0)",
    )
    fig.update_xaxes(visible=False, range=[-1.5, cols - 0.5], constrain="domain")
    fig.update_yaxes(  # in a narrower column than width_px, the room left is at the foot
        visible=False,
        autorange="reversed",
        scaleanchor="x",
        constrain="domain",
        constraintoward="top",
    )
    return fig


def _colour_bar(marks: dict[float, str] | None) -> dict:
    values = sorted({0.0, 1.0, *(marks or {})})
    return dict(
        tickmode="array",
        tickvals=values,
        ticktext=[(marks or {}).get(v) or f"{v:g}" for v in values],
        len=0.8,
    )


def scores(
    steps: np.ndarray,
    scores: Mapping[str, np.ndarray],
    *,
    names: dict[str, str],
    x_title: str,
    y_title: str,
    layer_label: str,
    head_label: str,
    chance: tuple[float, str],
    mark: int | None = None,
    height: int = 380,
) -> go.Figure:
    """Each head's pattern score (F, L, H) against the step, one panel per model.

    Colour is the layer (first layer darkest), dash the head; a dotted line marks the
    score of uniform rows (``chance`` = value, label) and ``mark`` the frame shown.
    """
    parts = list(scores)
    _, L, H = scores[parts[0]].shape
    colours = sample_colorscale("Plasma", np.linspace(0.0, 0.85, L)) if L > 1 else ["#0d0887"]
    fig = make_subplots(
        rows=1, cols=len(parts), shared_yaxes=True, subplot_titles=[names[k] for k in parts]
    )
    x = np.asarray(steps)
    for col, norm in enumerate(parts, start=1):
        for layer in range(L):
            for head in range(H):
                label = f"{layer_label} {layer + 1}, {head_label} {head + 1}"
                fig.add_trace(
                    go.Scatter(
                        x=x,
                        y=scores[norm][:, layer, head].astype(np.float32),
                        name=label,
                        mode="lines",
                        line=dict(
                            color=colours[layer],
                            dash=HEAD_DASHES[head % len(HEAD_DASHES)],
                            width=3 if layer == 0 else 1.5,
                        ),
                        legendgroup=label,
                        showlegend=col == 1,
                        hovertemplate=f"{label}<br>%{{x}}: %{{y:.3f}}<extra></extra>",
                    ),
                    row=1,
                    col=col,
                )
        fig.add_hline(
            y=chance[0],
            line_dash="dot",
            line_color="#777",
            annotation_text=chance[1],
            annotation_position="top right",
            row=1,
            col=col,
        )
        if mark is not None:
            fig.add_vline(x=mark, line_width=1, line_dash="dot", line_color="#555", row=1, col=col)
    fig.update_xaxes(title=x_title)
    fig.update_yaxes(range=[0, 1.02])
    fig.update_yaxes(title=y_title, row=1, col=1)
    # a legend of L × H names: its rows at the foot of the figure, below the axis titles,
    # and the figure taller by them, so that the panels keep their height
    below = LEGEND_ROW_PX * math.ceil(L * H / LEGEND_PER_ROW)
    fig.update_layout(
        height=height + below,
        margin=dict(l=60, r=10, t=40, b=70 + below),
        legend=dict(orientation="h", x=0, xanchor="left", yref="container", y=0, yanchor="bottom"),
    )
    return fig
