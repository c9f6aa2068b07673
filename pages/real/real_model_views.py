"""The real-model page's sections, drawn by pages/real/real_model.py in this order: the
grid of every layer's heads, the map and what hangs on it (one ``st.fragment``: the weight
followed, the query–key pictures), the CSV of every map, and the attention sinks.

The controls on the page's left (and a click in the mosaic) rerun the page; a click in
the map, or a control under it, reruns only the fragment. Strings are ``real_model.*``
and ``steps.*``; layers, heads and positions are shown counting from 1.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from attnviz import sinks
from attnviz.charts import lines_view
from attnviz.charts.real_model import LINE_MIN_WEIGHT
from attnviz.charts.sinks import sink_grid
from attnviz.lessons import real_model
from attnviz.lessons.real_model import probe as real_probe
from attnviz.lessons.real_model import sinks as real_sinks
from attnviz.limits import MAX_TEXT_CHARS
from attnviz.tables import long_table
from attnviz.text import columns, token_labels
from ui import mosaic, steps
from ui.compute import compute
from ui.export import csv_button, download_label, halved, plot
from ui.keys import FOLLOW, HEAD, LAYER, PICK_I, PICK_J
from ui.language import tr
from ui.layout import presenting
from ui.messages import error_box
from ui.widgets import slider, text, toggle

SINK_TITLE_WIDTH = 12  # wider panel titles of the sinks are on two lines when presenting


def pick_head(cell: tuple[int, int]) -> None:
    """Grid click → layer and head sliders (from 1; runs before the next script run)."""
    st.session_state[LAYER], st.session_state[HEAD] = cell[0] + 1, cell[1] + 1


def map_title(view: str, combine: str | None, layer: int, head: int) -> str:
    """The map's title: layer l's rollout, its heads combined, or head h of layer l."""
    if view == "rollout":
        return tr("real_model.rollout", l=layer + 1)
    if combine:
        how = tr(f"real_model.combine_{combine}")
        return tr("real_model.combined_title", l=layer + 1, how=how)
    return tr("names.layer_head", l=layer + 1, h=head + 1)


def head_grid(r: real_model.Result, L: int, H: int, selected: tuple[int, int]) -> None:
    """Every layer's heads as one mosaic, a click picks a head (``pick_head``), and its PNG."""
    st.subheader(tr("real_model.grid"))
    st.caption(tr("real_model.grid_help"))
    mosaic.mosaic(
        mosaic.data(
            r.mosaic,
            r.png,
            row_labels=[tr("real_model.layer_label", l=a + 1) for a in range(L)],
            col_labels=[tr("real_model.head_label", h=b + 1) for b in range(H)],
            names=[tr("names.layer_head", l=a + 1, h=b + 1) for a in range(L) for b in range(H)],
            selected=selected,
            alt=tr("real_model.grid"),
            large=presenting(),
            save=(download_label("png", tr("real_model.dl_grid")), "all_heads.png"),
        ),
        "grid",
        pick_head,
    )


class TextArea:
    """``ui.text`` draws with ``where.text_input``: this draws the same URL-kept text as an
    area of several lines."""

    text_input = staticmethod(st.text_area)


def space(cfg: real_model.Config, i: int) -> None:
    """Head h's query–key picture on the sentence, then pooled with the sentences typed."""
    layer, head = cfg.layer, cfg.head
    st.subheader(tr("real_model.qk_title", l=layer + 1, h=head + 1))
    st.caption(tr("steps.qk_intro"))
    k, centre = steps.qk_controls("space")
    q = compute(real_probe.qk, real_probe.Probe(cfg.text, layer, head, i, k, centre))
    steps.qk_view(q, key="space")
    st.subheader(tr("real_model.pool_title", l=layer + 1, h=head + 1))
    lines = text(
        "pool",
        tr(
            "real_model.pool_text",
            lines=real_probe.MAX_POOLED_LINES,
            tokens=real_probe.MAX_POOLED_TOKENS,
        ),
        "\n".join(real_probe.POOLED),
        MAX_TEXT_CHARS,
        where=TextArea,
    )
    more = tuple(line.strip() for line in lines.splitlines() if line.strip())
    try:
        probe = real_probe.Probe(cfg.text, layer, head, i, k, centre, more)
    except ValueError as err:  # too many lines or tokens: say so, keep the rest of the page
        error_box(err)
        return
    if more:
        pooled = compute(real_probe.qk, probe)
        names = [tr("steps.qk_sentence", s=n + 1) for n in range(len(more) + 1)]
        st.caption(tr("real_model.pool_caption"))
        csv = tr("real_model.dl_pooled")
        steps.qk_view(pooled, key="pooled", sentence_names=names, csv_label=csv)
    else:
        st.caption(tr("real_model.pool_empty"))


@st.fragment
def explore(cfg: real_model.Config, r: real_model.Result, title: str) -> None:
    """The map (one head, heads combined or rollout) with its cell picker, the lines view,
    one weight followed through its formula, and head h's query–key pictures."""
    N, layer, head = len(r.tokens), cfg.layer, cfg.head
    map_slot = st.container()
    left, right = st.columns(2)
    rollout = cfg.view == "rollout"  # no head to follow a weight of: greyed, values kept
    i = slider(PICK_I, tr("real_model.pick_i"), 1, N, 1, where=left, disabled=rollout) - 1
    j = slider(PICK_J, tr("real_model.pick_j"), 1, N, 1, where=right, disabled=rollout) - 1
    with map_slot:
        if cfg.hide_special:
            st.caption(tr("real_model.hide_note"))
        look = dict(
            title=title,
            zmin=0.0,
            zmax=r.zmax,
            x_title=tr("real_model.key"),
            y_title=tr("real_model.query"),
            height=720 if presenting() else 600,
            x_positions=r.keep,
            y_positions=r.keep,
        )
        name = f"{cfg.view}_L{layer + 1}"
        mosaic.enlarged_map(  # heads combined or rolled out: no one weight behind a cell
            r.shown,
            r.shown_tokens,
            r.shown_tokens,
            key="map",
            name=name,
            picked=(i, j) if cfg.one_head else None,
            on_pick=mosaic.pick_cell if cfg.one_head else None,
            notes=[tr("real_model.map_help" if cfg.one_head else "real_model.map_help_combined")],
            **look,
        )
        csv_button(
            pd.DataFrame(r.shown, index=r.labels, columns=r.labels),
            name,
            "csv",
            label=tr("real_model.dl_map", title=title),
        )
    if cfg.view == "head":
        st.subheader(tr("real_model.lines"))
        st.caption(tr("real_model.lines_note", w=LINE_MIN_WEIGHT))
        plot(lines_view(r.shown, r.shown_tokens), "lines", f"lines_L{layer + 1}")
    if not cfg.one_head:
        st.info(tr("real_model.steps_one_head"))
    elif toggle(FOLLOW, tr("steps.show_steps")):  # a click on a cell turns it on
        pick = real_probe.Pick(cfg.text, layer, head, i, j, cfg.hide_special)
        s = compute(real_probe.follow, pick)
        where = tr("names.layer_head", l=layer + 1, h=head + 1)
        steps.follow(s.steps, s.formulas, r.tokens, key="steps", where=where, extra=s.renormalised)
        if cfg.hide_special and s.renormalised is None:
            st.caption(tr("real_model.steps_hidden"))
        else:  # the map's cell: the softmax line's last number, or the rescaling line's
            cell = "real_model.cell_renormalised" if s.renormalised else "steps.cell_weights"
            st.caption(tr(cell, i=i + 1, j=j + 1, value=s.cell))
    # heads combined, the picture is still one head's: the label names it
    if toggle("qkview", tr("steps.show_qk", h=head + 1), disabled=rollout) and not rollout:
        space(cfg, i)
    mosaic.keep_in_url()


def all_maps_csv(r: real_model.Result) -> None:
    """Every layer's and head's map as one long CSV, or why a text this long has none."""
    if r.attentions is not None:
        labels = token_labels(r.tokens, escape=False)
        csv_button(
            lambda: long_table(r.attentions, labels, "weight", lead=("layer", "head")).set_index(
                "layer"
            ),
            "all_layers_heads",
            "csv_all",
            label=tr("real_model.dl_all"),
        )
    else:
        st.caption(tr("real_model.all_csv_big", n=len(r.tokens), hi=real_model.CSV_ALL_MAX_N))


def sinks_section(r: real_model.Result, hide: bool) -> None:
    """Where each head's weight goes ([CLS], [SEP], punctuation, the rest) and what it moves,
    without the special tokens when they are hidden."""
    st.subheader(tr("real_model.sinks_title"))
    shown = [c for c in sinks.CATEGORIES if not (hide and c in real_sinks.HIDDEN)]
    st.markdown(tr("real_model.sinks_intro_hidden" if hide else "real_model.sinks_intro"))
    sink_name = tr(f"real_model.sink_{r.sinks.sink}")
    why = "real_model.sinks_why" if r.sinks.idle else "real_model.sinks_plain"
    st.markdown(tr(why, w=r.sinks.weight, m=r.sinks.carried, sink=sink_name))
    for formula in r.sinks.formulas:
        st.latex(formula)
    st.caption(tr("real_model.sinks_moved"))
    titles = [tr(f"real_model.sink_{c}") for c in shown]
    if presenting():  # at 1024 px, 「句読点 𝒫」 and 「その他のトークン ℛ」 ran into each other
        titles = [halved(t) if columns(t) > SINK_TITLE_WIDTH else t for t in titles]
    grid = sink_grid(
        r.sinks.shares[[sinks.CATEGORIES.index(c) for c in shown]],
        titles,
        layer_label=tr("real_model.layer_label", l="{l}"),
        head_label=tr("real_model.head_label", h="{h}"),
        cell_name=tr("names.layer_head", l="{l}", h="{h}"),  # as the grid names it
        value_name=tr("real_model.sink_value"),
        title_px=16 if presenting() else 13,
        head_step=4 if presenting() else 2,
    )
    plot(grid, "sinks", "sinks")
    csv_button(
        real_sinks.sink_table(r.sinks, shown), "sinks", "csv_sinks", label=tr("real_model.dl_sinks")
    )
