"""Picking by clicking: a tile of a mosaic of maps, or a cell of one map.

The mosaic (a :class:`attnviz.charts.Mosaic`: a model's layer × head maps, or one layer's
heads) is plain HTML from an ``st.components.v2`` component: the PNG under a grid of
buttons draws far faster than a Plotly figure of the same image with its click targets,
and still gives hover names and click-to-pick. One enlarged map
(``attnviz.charts.cells.cell_map``) is the same kind of component: a PNG of its cells with
text labels, a tooltip, click-to-pick and a box-drag zoom.

Both report a pick through a callback that runs before the next run; inside an
``st.fragment`` that run is the fragment's alone, so :func:`keep_in_url` writes its
controls into the URL (app.py's share link does so only after a whole page's run).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np
import streamlit as st

from attnviz.charts import Mosaic
from attnviz.charts.cells import bar_ticks, bar_uri, cell_map
from attnviz.charts.maps import TICK_LABELS_MAX_N
from attnviz.charts.raster import png_uri
from attnviz.text import token_labels

from .components import component, ordered
from .drawn import drawn
from .keys import FOLLOW, PICK_I, PICK_J
from .language import tr
from .layout import presenting
from .share import keep_url, url_params
from .widgets import kept_int

COMPONENT = component("attnviz.mosaic", "mosaic")
HEATMAP = component("attnviz.heatmap", "heatmap")


def data(
    m: Mosaic,
    png: bytes,
    *,
    row_labels: list[str],
    col_labels: list[str],
    names: list[str],
    selected: tuple[int, int] | None,
    alt: str,
    large: bool = False,
    tile_labels: list[str] | None = None,
    short_labels: list[str] | None = None,
    max_width: int | None = None,
    save: tuple[str, str] | None = None,
    notes: list[str] | None = None,
    handout: dict | None = None,
) -> dict:
    """What the component draws: the PNG as a data URI and the tile geometry in pixels.

    ``names`` (hover, one per tile, row by row; fewer names than rows × cols leave the
    last tiles out), ``tile_labels`` titles drawn in the band above each tile, and
    ``short_labels`` the same titles short ("h12"), drawn instead where the titles would run
    into each other at the width the browser gives the picture (a phone), ``large``
    labels for presentation mode, ``max_width`` the widest the picture grows (CSS px),
    ``save`` (label, file name) a link under the picture that saves this PNG: the
    component's own, where an ``st.download_button`` was one more element for each rerun;
    ``notes`` paragraphs of plain text under it, as an ``st.caption`` (one element fewer).
    ``alt`` names the picture; its text alternative adds how many maps, how laid out,
    and the name of the tile picked.
    ``handout`` (from :func:`handout`): the PNG saved is drawn for a handout instead, each
    tile enlarged under its title, with its tokens and the colour bar (ui/mosaic.js).
    """
    described = tr("app.mosaic_alt", what=alt, count=len(names), rows=m.rows, cols=m.cols)
    if selected:
        described += tr("app.mosaic_picked", name=names[selected[0] * m.cols + selected[1]])
    return {
        "src": png_uri(png),
        "rows": m.rows,
        "cols": m.cols,
        "cell": m.cell,
        "gap": m.gap,
        "band": m.band,
        "names": names,
        "rowLabels": row_labels,
        "colLabels": col_labels,
        "tileLabels": tile_labels or [],
        "shortLabels": short_labels or [],
        "selected": list(selected) if selected else None,
        "alt": described,
        "large": large,
        "maxWidth": max_width,
        "save": {"label": save[0], "file": save[1]} | (handout or {}) if save else None,
        "notes": notes or [],
    }


def handout(tokens: list[str], lo: float, hi: float, marks: dict[float, str] | None) -> dict:
    """What a mosaic's saved PNG adds for a handout: the tokens (every tile's rows and
    columns), the colour bar from ``lo`` to ``hi`` with ``marks`` (as the enlarged map's),
    and what its rows and columns are."""
    return {
        "tokens": token_labels(tokens, escape=False),
        "dense": TICK_LABELS_MAX_N,
        "bar": {"src": bar_uri(), "ticks": bar_ticks(lo, hi, marks)},
        "axes": tr("app.csv_corner"),
    }


def pick_cell(cell: tuple[int, int]) -> None:
    """Map cell (query position, key position) → the sliders i and j (from 1), steps on:
    the enlarged map's pick on the multi-head and real-model pages."""
    st.session_state[PICK_I], st.session_state[PICK_J] = cell[0] + 1, cell[1] + 1
    st.session_state[FOLLOW] = True


def picked(n: int) -> tuple[int, int]:
    """The cell last picked on an enlarged map of ``n`` tokens, (query, key) from 0; (0, 0)
    before any. It is no widget's: the map itself picks (a click, or the arrows and Enter);
    a pair of sliders beside it were drawn again on every click, each measuring the page
    (about a sixth of the browser's work for the click). Kept in ``?i=&j=`` (from 1) as a
    control is."""
    return kept_int(PICK_I, 1, n, 1) - 1, kept_int(PICK_J, 1, n, 1) - 1


def _picked(key: str, on_pick: Callable[[tuple[int, int]], None]) -> Callable[[], None]:
    """The component's callback: its last pick, (row, col), to ``on_pick``."""

    def picked() -> None:
        value = st.session_state[key].get("pick")
        if value:
            on_pick(tuple(value))

    return picked


def mosaic(payload: dict, key: str, on_pick: Callable[[tuple[int, int]], None]) -> None:
    """Draw the mosaic; a click on tile (row, col) calls ``on_pick((row, col))`` before
    the next run."""
    COMPONENT(key=key, data=ordered(key, payload), on_pick_change=_picked(key, on_pick))


def enlarged_map(
    z: np.ndarray,
    x_tokens: list[str],
    y_tokens: list[str],
    *,
    key: str,
    name: str,
    picked: tuple[int, int] | None,
    on_pick: Callable[[tuple[int, int]], None] | None,
    notes: list[str] | None = None,
    **look,
) -> None:
    """One map as a picture of its cells with the cell ``picked`` outlined: a click calls
    ``on_pick((query position, key position))`` before the next run (``None``: a click
    picks nothing), a dragged box zooms. ``notes``: paragraphs of plain text under the map,
    as an ``st.caption``. ``look``: the titles, colour range and positions of ``cell_map``.
    The picture is made once per process for what it is made from (ui.drawn).
    """
    pickable = on_pick is not None

    def build() -> dict:
        payload = cell_map(
            z,
            x_tokens,
            y_tokens,
            picked=picked,
            large=presenting(),
            name=name,
            save_label=tr("app.save_map_png"),
            reset_label=tr("app.reset_zoom"),
            pickable=pickable,
            masked_label=tr("app.masked"),
            **look,
        )
        payload["alt"] = map_alt(z, payload)
        return payload

    payload = drawn(build)
    pick = on_pick and _picked(key, on_pick)
    HEATMAP(key=key, data=ordered(key, payload | {"notes": notes or []}), on_pick_change=pick)


def map_alt(z: np.ndarray, payload: dict) -> str:
    """The text alternative of one map (``cell_map``'s ``payload`` of ``z``), in the reader's
    language: its title, its size and its largest value, at the cell's row and column as
    labelled (the first such cell; masked cells, not finite, left out)."""
    title = re.sub(r"</?sub>", "", payload["title"])
    z = np.asarray(z, dtype=np.float64)
    finite = np.where(np.isfinite(z), z, -np.inf)
    r, c = np.unravel_index(int(np.argmax(finite)), finite.shape)
    return tr(
        "app.map_alt",
        title=title,
        rows=z.shape[0],
        cols=z.shape[1],
        value=float(finite[r, c]),
        row=payload["rowNames"][r],
        col=payload["colNames"][c],
    )


def keep_in_url() -> None:
    """Write the page's controls into the URL after a fragment's own run: the same rule as
    app.py's share link (every control off its default, the language always)."""
    keep_url(url_params())
