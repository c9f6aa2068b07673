"""The model view in the app: a :class:`attnviz.charts.Mosaic` drawn as plain HTML.

A Plotly figure of the same image costs ~30 ms of fixed drawing time per view plus its
click targets (bench/bench_model_view.py); an ``st.components.v2`` component that shows
the PNG under a grid of buttons draws in a few milliseconds and still gives hover names,
click-to-pick and a PNG download.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import streamlit as st

from attnviz.charts import Mosaic
from attnviz.charts.raster import png_uri

HERE = Path(__file__).parent
COMPONENT = st.components.v2.component(
    "attnviz.mosaic",
    css=(HERE / "mosaic.css").read_text(encoding="utf-8"),
    js=(HERE / "mosaic.js").read_text(encoding="utf-8"),
)


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
) -> dict:
    """What the component draws: the PNG as a data URI and the cell geometry in pixels;
    ``large`` labels for presentation mode."""
    return {
        "src": png_uri(png),
        "rows": m.rows,
        "cols": m.cols,
        "cell": m.cell,
        "gap": m.gap,
        "names": names,
        "rowLabels": row_labels,
        "colLabels": col_labels,
        "selected": list(selected) if selected else None,
        "alt": alt,
        "large": large,
    }


def mosaic(payload: dict, key: str, on_pick: Callable[[tuple[int, int]], None]) -> None:
    """Draw the mosaic; a click on cell (row, col) calls ``on_pick((row, col))`` before
    the next run."""

    def picked() -> None:
        value = st.session_state[key].get("pick")
        if value:
            on_pick(tuple(value))

    COMPONENT(key=key, data=payload, on_pick_change=picked)
