"""The real-model page's grid of every layer's heads: one mosaic, a click on a tile picks
that layer and head (the page's sliders), and the grid's PNG."""

from __future__ import annotations

import streamlit as st

from attnviz.lessons import real_model
from ui import mosaic
from ui.drawn import drawn
from ui.export import download_label, file_stem
from ui.keys import HEAD, LAYER
from ui.language import tr
from ui.layout import presenting, prose


def pick_head(cell: tuple[int, int]) -> None:
    """Grid click → layer and head sliders (from 1; runs before the next script run)."""
    st.session_state[LAYER], st.session_state[HEAD] = cell[0] + 1, cell[1] + 1


def head_grid(r: real_model.Result, L: int, H: int, selected: tuple[int, int]) -> None:
    """Every layer's heads as one mosaic, a click picks a head (``pick_head``), and its PNG."""
    st.subheader(tr("real_model.grid"))
    top = r.mosaic_top != 1.0  # contributions: colours up to a percentile, not to 1
    top_note = tr("real_model.grid_contributions", top=r.mosaic_top, p=real_model.MOSAIC_TOP)
    prose(tr("real_model.grid_help"), top_note if top else "", small=True)
    what = tr("real_model.dl_grid")

    def labels() -> tuple[list[str], list[str], list[str]]:  # once per process for L, H (ui.drawn)
        return (
            [tr("real_model.layer_label", l=a + 1) for a in range(L)],
            [tr("real_model.head_label", h=b + 1) for b in range(H)],
            [tr("names.layer_head", l=a + 1, h=b + 1) for a in range(L) for b in range(H)],
        )

    rows, cols, names = drawn(labels)
    mosaic.mosaic(
        mosaic.data(
            r.mosaic,
            r.png,
            row_labels=rows,
            col_labels=cols,
            names=names,
            selected=selected,
            alt=tr("real_model.grid"),
            large=presenting(),
            save=(download_label("png", what), f"{file_stem(what)}.png"),
        ),
        "grid",
        pick_head,
    )
