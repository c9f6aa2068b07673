"""The real-model page's sections, drawn by pages/real/real_model.py after the grid of every
layer's heads (``real_model_grid``): the map and what hangs on it (one ``st.fragment``: the
weight followed, the query–key pictures of ``real_model_qkspace``), and the CSV of every
map; the attention sinks below are ``real_model_sinks``.

The controls on the page's left (and a click in the mosaic) rerun the page; a click in
the map, or a control under it, reruns only the fragment. Strings are ``real_model.*``
and ``steps.*``; layers, heads and positions are shown counting from 1.
"""

from __future__ import annotations

import streamlit as st

from attnviz.charts import lines_view
from attnviz.charts.real_model import LINE_MIN_WEIGHT
from attnviz.lessons import real_model
from attnviz.lessons.real_model import probe as real_probe
from attnviz.lessons.real_model.measures import MEASURES
from attnviz.text import token_labels
from pages.real import real_model_qkspace as qkspace
from ui import mosaic, steps
from ui.compute import compute
from ui.export import csv_button, file_stem, map_table, maps_table
from ui.keys import FOLLOW, PICK_I, PICK_J
from ui.language import tr
from ui.layout import presenting
from ui.plots import plot
from ui.widgets import slider, toggle


def map_title(view: str, combine: str | None, layer: int, head: int, measure: str) -> str:
    """The map's title: layer l's rollout, its heads combined, or head h of layer l, and
    what its cells are when not the weights."""
    if view == "rollout":
        title = tr("real_model.rollout", l=layer + 1)
    elif combine:
        how = tr(f"real_model.combine_{combine}")
        title = tr("real_model.combined_title", l=layer + 1, how=how)
    else:
        title = tr("names.layer_head", l=layer + 1, h=head + 1)
    if MEASURES[measure].rows_sum_to_one:
        return title
    return tr("real_model.title_contributions", title=title)


@st.fragment
def explore(cfg: real_model.Config, r: real_model.Result, title: str, specials: str = "") -> None:
    """The map (one head, heads combined or rollout) with its cell picker, the lines view,
    one weight followed through its formula, and head h's query–key pictures; a causal
    model's masked cells grey. ``specials``: the family's sink candidates, as shown."""
    N, layer, head = len(r.tokens), cfg.layer, cfg.head
    map_slot = st.container()
    left, right = st.columns(2)
    rollout = cfg.view == "rollout"  # no head to follow a weight of: greyed, values kept
    i = slider(PICK_I, tr("real_model.pick_i"), 1, N, 1, where=left, disabled=rollout) - 1
    j = slider(PICK_J, tr("real_model.pick_j"), 1, N, 1, where=right, disabled=rollout) - 1
    if cfg.view == "head":
        st.subheader(tr("real_model.lines"))
        shares = not r.rows_are_shares  # the lines: each row's share of what is sent
        note = "real_model.lines_note_contributions" if shares else "real_model.lines_note"
        st.caption(tr(note, w=LINE_MIN_WEIGHT))
        lines = file_stem(f"{tr('real_model.lines')} ({title})")  # in the reader's language
        plot(lines_view(r.lines, r.shown_tokens), "lines", lines)
    follow = False
    if not cfg.one_head:
        st.info(tr("real_model.steps_one_head"))
    elif follow := toggle(FOLLOW, tr("steps.show_steps")):  # a click on a cell turns it on
        pick = real_probe.Pick(cfg.text, layer, head, i, j, cfg.hide_special, cfg.model)
        s = compute(real_probe.follow, pick)
        where = tr("names.layer_head", l=layer + 1, h=head + 1)
        if not MEASURES[cfg.measure].rows_sum_to_one:  # the map's cell: the sent line's
            note = tr("steps.cell_contributions", i=i + 1, j=j + 1, value=s.steps.sent)
        elif cfg.hide_special and s.renormalised is None:
            note = tr("real_model.steps_hidden", specials=specials)
        else:  # the map's cell: the softmax line's last number, or the rescaling line's
            cell = "real_model.cell_renormalised" if s.renormalised else "steps.cell_weights"
            note = tr(cell, i=i + 1, j=j + 1, value=s.cell)
        steps.follow(s.steps, s.formulas, r.tokens, where=where, extra=s.renormalised, notes=[note])
    # heads combined, the picture is still one head's: the label names it
    qkview = toggle("qkview", tr("steps.show_qk", h=head + 1), disabled=rollout) and not rollout
    if qkview:
        qkspace.space(cfg, i)
    # the weight (i, j) is outlined only while the steps or the query–key picture use it:
    # before either, nothing is picked. The map is drawn in its place above them, last,
    # once both toggles are known
    with map_slot:
        if cfg.hide_special:
            hidden = "hide_note" if r.rows_are_shares else "hide_note_contributions"
            st.caption(tr(f"real_model.{hidden}", specials=specials))
        look = dict(
            title=title,
            zmin=0.0,
            zmax=r.zmax,
            x_title=tr("real_model.key"),
            y_title=tr("real_model.query"),
            height=720 if presenting() else 600,
            x_positions=r.keep,
            y_positions=r.keep,
            masked=r.masked,
        )
        what = tr("real_model.dl_map", title=title)
        mosaic.enlarged_map(  # heads combined or rolled out: no one weight behind a cell
            r.shown,
            r.shown_tokens,
            r.shown_tokens,
            key="map",
            name=file_stem(title),
            picked=(i, j) if cfg.one_head and (follow or qkview) else None,
            on_pick=mosaic.pick_cell if cfg.one_head else None,
            notes=[tr("real_model.map_help" if cfg.one_head else "real_model.map_help_combined")],
            **look,
        )
        csv_button(map_table(r.shown, r.labels, r.labels), what, "csv")
    mosaic.keep_in_url()


def all_maps_csv(r: real_model.Result, measure: str) -> None:
    """Every layer's and head's map of the ``measure`` shown as one long CSV, or why a text
    this long has none."""
    if r.maps is not None:
        labels = token_labels(r.tokens, escape=False)
        value = tr(f"real_model.csv_{MEASURES[measure].column}")
        csv_button(
            maps_table(r.maps, labels, value, ("layer", "head")),
            tr(f"real_model.dl_all_{measure}"),
            "csv_all",
        )
    else:
        st.caption(tr("real_model.all_csv_big", n=len(r.tokens), hi=real_model.CSV_ALL_MAX_N))
