"""The real-model page's last section, drawn by pages/real/real_model.py: where each
head's weight goes (the family's sink candidates, punctuation, the rest), or what it sends
from there, as one grid of every layer's heads per category, with its formulas and CSV;
then, per layer, the two shares side by side (``real_model_sinks_layers``). Strings are
``real_model.*``.
"""

from __future__ import annotations

import streamlit as st

from attnviz import sinks
from attnviz.charts.sinks import sink_grid
from attnviz.lessons import real_model
from attnviz.lessons.real_model import sinks as real_sinks
from attnviz.lessons.real_model.measures import MEASURES
from attnviz.text import columns
from pages.real import real_model_sinks_layers
from ui.export import csv_button, file_stem
from ui.language import tr
from ui.layout import display, presenting, prose
from ui.plots import halved, plot

SINK_TITLE_WIDTH = 12  # wider panel titles of the sinks are on two lines when presenting


def section(r: real_model.Result, hide: bool, keys: dict | None = None) -> None:
    """Where each head's weight goes (the family's candidates, punctuation, the rest) and
    what it moves, without the candidates when they are hidden; its figures drawn once per
    process for what they read (ui.plot). ``keys``: the family's strings."""
    keys = keys or {}
    names = dict(specials=tr(keys["specials"]), each=tr(keys["each"])) if keys else {}
    shown = [c for c in r.categories() if not (hide and c in real_sinks.HIDDEN)]
    intro = "real_model.sinks_intro_hidden" if hide else "real_model.sinks_intro"
    if not MEASURES[r.sinks.measure].rows_sum_to_one:  # the grids are of what is sent
        intro += "_contributions"
    sink_name = tr(r.category_key(r.sinks.sink))
    why = "real_model.sinks_why" if r.sinks.idle else "real_model.sinks_plain"
    prose(
        tr(intro, **names),
        tr(why, w=r.sinks.weight, m=r.sinks.carried, sink=sink_name),
        *map(display, r.sinks.formulas),
        heading=tr("real_model.sinks_title"),
    )
    st.caption(tr("real_model.sinks_moved"))
    titles = [tr(r.category_key(c)) for c in shown]
    if presenting():  # at 1024 px, 「句読点 𝒫」 and 「その他のトークン ℛ」 ran into each other
        titles = [halved(t) if columns(t) > SINK_TITLE_WIDTH else t for t in titles]
    what = tr("real_model.dl_sinks")  # files named as their buttons, in the reader's language
    plot(
        lambda: sink_grid(
            r.sinks.shares[[sinks.CATEGORIES.index(c) for c in shown]],
            titles,
            layer_label=tr("real_model.layer_label", l="{l}"),
            head_label=tr("real_model.head_label", h="{h}"),
            cell_name=tr("names.layer_head", l="{l}", h="{h}"),  # as the grid names it
            value_name=tr("real_model.sink_value"),
            title_px=16 if presenting() else 13,
            head_step=4 if presenting() else 2,
        ),
        "sinks",
        file_stem(what),
    )
    csv_button(
        lambda: real_sinks.sink_table(r.sinks, shown),  # built when clicked
        file_stem(what),
        "csv_sinks",
        label=what,
    )
    real_model_sinks_layers.section(r)
