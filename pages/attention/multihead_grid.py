"""The multi-head page's grid of every head, drawn inside ``multihead_views.explore`` (its
``st.fragment``): one tile per head with its entropy and largest weight, the PNG of them
all, and a click on a tile that enlarges that head. Strings are ``multihead.*``; heads are
shown counting from 1.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from attnviz.charts import Mosaic
from attnviz.charts.multihead import TITLE_PX, TITLE_PX_LARGE, head_tiles
from attnviz.lessons import multihead
from ui import mosaic
from ui.drawn import drawn
from ui.export import download_label, file_stem
from ui.keys import HEAD
from ui.language import tr
from ui.layout import presenting


def grid_picture(shown: np.ndarray, lo: float, hi: float, present: bool) -> tuple[Mosaic, bytes]:
    """Every head's tile of the maps ``shown`` and their PNG: drawn once per process for
    what it is drawn from (ui.drawn); a class asks for the same few, and drawing them is
    most of a rerun's work."""
    tiles = head_tiles(
        shown,
        zmin=lo,
        zmax=hi,
        width_px=760 if present else 520,
        title_px=TITLE_PX_LARGE if present else TITLE_PX,
    )
    return tiles, tiles.png()


def pick_head(cols: int):
    """Tile (row, col) → the enlarged head's slider (h from 1)."""
    return lambda tile: st.session_state.update({HEAD: tile[0] * cols + tile[1] + 1})


def grid(
    cfg: multihead.Config,
    r: multihead.Result,
    show: str,
    shown: np.ndarray,
    span: tuple[float, float],
    h: int,
) -> None:
    """Every head of ``shown`` (``r``'s weights, scores or contributions, as ``show`` names) as one
    mosaic coloured over ``span``, head h marked as the one enlarged."""
    N = len(r.tokens)
    st.subheader(tr("multihead.grid"))
    lo, hi = span
    present = presenting()
    tiles, png = drawn(lambda: grid_picture(shown, lo, hi, present))
    titles = [tr("multihead.head", h=g + 1) for g in range(cfg.H)]
    short = [tr("multihead.head_short", h=g + 1) for g in range(cfg.H)]
    names = [
        tr("multihead.tile_name", h=g + 1, entropy=r.entropy[g], max=r.max_weight[g])
        for g in range(cfg.H)
    ]
    notes = [tr("multihead.grid_caption")]  # drawn by the grid: no element of their own
    if tiles.cell < N:
        notes.append(tr("multihead.grid_pooled", N=N))
    if show == "weights":
        rule = "multihead.range_causal" if cfg.causal else "multihead.range"
        notes.append(tr(rule, hi=hi, N=N, uniform=1 / N))
    if show == "contributions":  # rows do not sum to 1: say what they add up to
        notes.append(tr("multihead.range_contributions", hi=hi))
    what = tr("multihead.dl_grid")
    payload = mosaic.data(
        tiles,
        png,
        row_labels=[],
        col_labels=[],
        names=names,
        tile_labels=titles,
        short_labels=short,
        selected=divmod(h, tiles.cols),
        alt=tr("multihead.grid"),
        large=presenting(),
        max_width=760 if presenting() else 520,
        save=(download_label("png", what), f"{file_stem(what)}.png"),
        notes=notes,
        handout=mosaic.handout(r.tokens, lo, hi, {1 / N: "1/N"} if show == "weights" else None),
    )
    mosaic.mosaic(payload, "grid", pick_head(tiles.cols))
