"""One attention map as a picture whose cells are picked by clicking (ui/heatmap.js).

The pages draw their enlarged map this way instead of as a Plotly heat map, at every size
the limits allow: the map is a PNG with one pixel per cell, drawn without smoothing; token
labels, titles, the colour bar's ticks and the tooltip are HTML; a box dragged on the map
zooms into it; its own button saves it, labels and all, as a PNG drawn in the browser. The
component's script is a small part of a redraw, where Plotly's labelled heat map with click
targets was most of it (bench/README.md, bench_ui and bench_click).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

from ..limits import MAX_N
from ..text import token_labels
from .maps import TICK_LABELS_MAX_N
from .raster import colour, colour_table, floats, png_bytes, png_uri

BAR_TICKS = 5  # evenly spaced ticks on the colour bar, ends included


@functools.cache
def bar_uri() -> str:
    """The colour scale as a 1 × 256 column, highest value on top."""
    return png_uri(png_bytes(np.ascontiguousarray(colour_table()[::-1, None, :])))


def bar_ticks(zmin: float, zmax: float, marks: dict[float, str] | None) -> list[list]:
    """[[fraction of the bar from the bottom, label], …]: evenly spaced values, and each
    marked value in range (e.g. {1/N: "1/N"}) with its name; a plain tick within 6 % of
    the bar's height of a mark gives way to it."""
    span = zmax - zmin
    if span <= 0:
        return [[0.5, f"{zmin:.3g}"]]
    marked = {(v - zmin) / span: name for v, name in (marks or {}).items() if zmin <= v <= zmax}
    plain = np.linspace(0, 1, BAR_TICKS)
    ticks = [[f, name] for f, name in marked.items()]
    ticks += [
        [float(f), f"{zmin + f * span:.3g}"]
        for f in plain
        if all(abs(f - m) > 0.06 for m in marked)
    ]
    return sorted(ticks)


def cell_map(
    z: np.ndarray,
    x_tokens: list[str],
    y_tokens: list[str],
    *,
    title: str = "",
    x_title: str = "",
    y_title: str = "",
    zmin: float | None = 0.0,
    zmax: float | None = 1.0,
    marks: dict[float, str] | None = None,
    x_positions: Sequence[int] | None = None,
    y_positions: Sequence[int] | None = None,
    picked: tuple[int, int] | None = None,
    height: int = 520,
    large: bool = False,
    name: str = "map",
    save_label: str = "PNG",
    reset_label: str = "Reset zoom",
    pickable: bool = True,
    masked: np.ndarray | None = None,
    masked_label: str = "masked",
) -> dict:
    """The payload of ui/heatmap.js for one map (rows = queries, columns = keys).

    ``zmin`` / ``zmax`` None: the data's own range. ``x_positions`` / ``y_positions``
    number the tokens when some were left out; a click reports (query position, key
    position) in those numbers, and ``picked`` = (query position, key position) is
    outlined; ``pickable`` False: a click or Enter picks nothing (a map of heads combined,
    with no one weight behind a cell). ``masked`` (N_q, N_k) True where a mask forbids the
    cell: drawn grey, its tooltip ``masked_label``. ``height``: the tallest the map grows on screen
    (CSS px). The component's button ``save_label`` saves the map as shown, labels
    included, as ``name``.png, and ``reset_label`` shows the whole map again after a
    zoom. Every token is labelled while at most ``TICK_LABELS_MAX_N`` are in view, else
    every tenth position is numbered.

    Shape:
        z (N_q, N_k) with N_q, N_k ≤ MAX_N; in the payload its float32 bytes, base64.
    """
    z = np.asarray(z, dtype=np.float32)
    n_y, n_x = z.shape
    if masked is not None:
        z = np.where(np.asarray(masked, dtype=bool), np.float32(np.nan), z)
    if max(n_x, n_y) > MAX_N:
        raise ValueError(f"a map has at most {MAX_N} tokens a side")
    xs = list(range(n_x)) if x_positions is None else [int(p) for p in x_positions]
    ys = list(range(n_y)) if y_positions is None else [int(p) for p in y_positions]
    xl = token_labels(x_tokens, xs, escape=False)  # drawn as text, never parsed as HTML
    yl = token_labels(y_tokens, ys, escape=False)
    lo = float(np.nanmin(z)) if zmin is None else float(zmin)
    hi = float(np.nanmax(z)) if zmax is None else float(zmax)
    selected = None
    if picked is not None and picked[0] in ys and picked[1] in xs:
        selected = [ys.index(picked[0]), xs.index(picked[1])]
    return {
        "src": png_uri(png_bytes(colour(z, lo, hi))),
        "rows": n_y,
        "cols": n_x,
        "z": floats(z),  # row by row
        "rowNames": yl,
        "colNames": xl,
        "denseMax": TICK_LABELS_MAX_N,
        "rowPositions": ys,
        "colPositions": xs,
        "title": title,
        "xTitle": x_title,
        "yTitle": y_title,
        "bar": {"src": bar_uri(), "ticks": bar_ticks(lo, hi, marks)},
        "selected": selected,
        "height": height,
        "large": large,
        "name": name,
        "saveLabel": save_label,
        "resetLabel": reset_label,
        "pickable": pickable,
        "maskedLabel": masked_label,
    }
