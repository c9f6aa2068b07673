"""Attention maps: the heat map trace every chart draws a matrix with (``map_trace``),
its colour bar (``colour_bar``), and one head as a hoverable heat map (``heatmap``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from ..text import token_labels
from .raster import COLORSCALE

HOVER_MAX_N = 64  # above this, per-cell token labels cost more than they help
TICK_LABELS_MAX_N = 40
# a legend at the figure's foot, in room of its own under the axis titles (placed in the
# plot's terms, a 20 px legend lies on an axis title, or under the chart's title)
LEGEND_AT_FOOT = dict(orientation="h", x=0, xanchor="left", yref="container", y=0, yanchor="bottom")
HOVER = "%{customdata}<br>%{z:.4f}<extra></extra>"  # a cell's words (query → key), its value


def counted(n: int, most: int = 8) -> dict:
    """An axis counting 1 … n: ticks at whole numbers only, 1, 2 or 5 times a power of ten
    apart, at most about ``most`` of them (Plotly's own puts 0.5 and 1.5 on a short axis)."""
    steps = (k * 10**e for e in range(7) for k in (1, 2, 5))
    step = next(s for s in steps if n / s <= most)
    return dict(tickmode="linear", tick0=1 if step == 1 else step, dtick=step)


def colour_bar(
    zmin: float | None = None,
    zmax: float | None = None,
    marks: dict[float, str] | None = None,
    **style,
) -> dict | None:
    """A map's colour bar: ticks at its ends and at each marked value (e.g. {1/N: "1/N"})
    when ``marks`` and the range are given, else Plotly's own ticks; ``style`` adds Plotly's
    colour-bar settings (title, len, exponentformat, …). None leaves Plotly's own bar."""
    if marks and zmin is not None and zmax is not None:
        values = sorted({float(zmin), float(zmax), *(v for v in marks if zmin <= v <= zmax)})
        text = [marks.get(v) or f"{v:.3g}" for v in values]
        style |= dict(tickmode="array", tickvals=values, ticktext=text)
    return style or None


def pairs(rows: Sequence[str], cols: Sequence[str]) -> np.ndarray:
    """Each cell's "row → column" (query → key), the hover text of a map.

    Shape:
        rows (N_q,), cols (N_k,) -> (N_q, N_k) str
    """
    return np.array([[f"{r} → {c}" for c in cols] for r in rows], dtype=object)


def map_trace(
    z: np.ndarray,
    *,
    x: Sequence[float] | None = None,
    y: Sequence[float] | None = None,
    zmin: float | None = 0.0,
    zmax: float | None = 1.0,
    zmid: float | None = None,
    colorscale: str | None = COLORSCALE,
    coloraxis: str | None = None,
    hover: np.ndarray | None = None,
    template: str = HOVER,
    bar: dict | None = None,
    showscale: bool | None = None,
    subplot: int | None = None,
    name: str | None = None,
    hoverongaps: bool | None = None,
) -> go.Heatmap:
    """One map (rows top to bottom, as the layout's reversed y-axis draws them) as a heat
    map trace of float32 values, the one every chart draws a matrix with.

    ``hover`` is each cell's text for ``template``'s ``%{customdata}``; ``bar`` the colour
    bar (``colour_bar``); ``coloraxis`` names the layout's colour axis that holds range and
    scale for several maps at once; ``subplot`` k puts the map on axes x_k, y_k.
    """
    if coloraxis is not None:  # the shared axis, not the trace, holds the range and scale
        zmin = zmax = colorscale = None
    axes = {}
    if subplot is not None:
        k = "" if subplot == 1 else str(subplot)
        axes = dict(xaxis=f"x{k}", yaxis=f"y{k}")
    return go.Heatmap(
        z=np.asarray(z, dtype=np.float32),
        x=x,
        y=y,
        zmin=zmin,
        zmax=zmax,
        zmid=zmid,
        colorscale=colorscale,
        coloraxis=coloraxis,
        showscale=showscale,
        colorbar=bar,
        customdata=hover,
        hoverongaps=hoverongaps,
        name=name,
        hovertemplate=template,
        **axes,
    )


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
        hover = dict(hover=pairs(yl, xl))
    else:
        hover = dict(template="%{y} → %{x}<br>%{z:.4f}<extra></extra>")
    bar = colour_bar(zmin, zmax, marks)
    trace = map_trace(z, x=xs, y=ys, zmin=zmin, zmax=zmax, colorscale=colorscale, bar=bar, **hover)
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
