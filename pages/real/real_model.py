"""A trained model (the shipped all-MiniLM-L6-v2, or one the server lists: a folder of
ATTNVIZ_MODELS, the Hugging Face cache) run by attnviz's blocks: all heads, one layer,
rollout; one weight followed through its formula, a head's query–key space, and attention
sinks. What the page says of the model (its LN placement, causal maps, sink candidates)
comes from its family.

The controls on the left (and a click in the mosaic) rerun the page; the map and what
hangs on it (the weight followed, the query–key pictures) are one ``st.fragment``.
The sections (grid, map) are drawn by ``real_model_views`` beside it, the attention sinks
by ``real_model_sinks``.
"""

from contextlib import nullcontext

import streamlit as st

import ui
from attnviz.errors import InputError
from attnviz.lessons import real_model
from attnviz.lessons.real_model import forward, models
from attnviz.lessons.real_model.measures import MEASURES
from attnviz.limits import MAX_TEXT_CHARS
from attnviz.text import token_labels
from pages.real import real_model_grid, real_model_layernorm, real_model_sinks
from pages.real import real_model_views as views
from ui.keys import HEAD, LAYER

found = models.found()
model = ui.select("model", ui.tr("real_model.model"), list(found), forward.MODEL, where=st.sidebar)
st.sidebar.caption(ui.tr("real_model.model_help"))
title = ui.tr("real_model.title", model=model.replace("-", "\u2011"))  # one line: no-break
try:
    a = forward.about(model)
except InputError as err:  # a bad folder: the title over a translated message, and stop
    st.title(title)
    ui.error_box(err)
    ui.stop()
keys = dict(a.strings)
specials = ui.tr(keys["specials"])
ui.prose(  # the title and what the model is, one element
    ui.tr("real_model.intro", family=a.family, model=model, L=a.L, H=a.H, D=a.D),
    ui.tr(keys["intro"]),
    heading=title,
    level=1,
)
final = ui.tr("real_model.block_final") if a.final_norm else ""
causal = ui.tr("real_model.block_causal") if a.causal else ""
norm = ui.tr(f"names.norm_{a.norm}")
st.caption(ui.tr("real_model.block_norm", norm=norm, final=final, causal=causal))
L, H = a.L, a.H
left, right = ui.split([2, 3])  # the formulas need two fifths
with left:
    text = ui.text(
        "text", ui.tr("real_model.text"), ui.tr("real_model.default_text"), MAX_TEXT_CHARS
    )
    view = ui.select(
        "show",
        ui.tr("real_model.view"),
        real_model.VIEWS,
        "model",
        labels="real_model.view_",
        radio=True,
    )
    measure = ui.select(  # what every map, grid and rollout of the page shows
        "measure",
        ui.tr("real_model.measure"),
        list(MEASURES),
        "weights",
        labels="real_model.measure_",
        radio=True,
    )
    layer = ui.slider(LAYER, ui.tr("real_model.layer"), 1, L, min(3, L)) - 1
    # rollout averages the heads: the slider stays, greyed, so that its value is kept
    head = ui.slider(HEAD, ui.tr("real_model.head"), 1, H, 1, disabled=view == "rollout") - 1
    combine = None
    if view == "head" and ui.toggle("all_heads", ui.tr("real_model.all_heads", H=H)):
        combine = ui.select(
            "combine",
            ui.tr("real_model.combine"),
            real_model.COMBINE,
            "mean",
            labels="real_model.combine_",
            radio=True,
        )
    kept = "" if MEASURES[measure].rows_sum_to_one else "_contributions"  # what hiding does
    hide = ui.toggle("hide_special", ui.tr(f"real_model.hide_special{kept}", specials=specials))
    fields = dict(text=text, view=view, layer=layer, head=head, combine=combine, model=model)
    # a wait shows only while the model loads (a spinner starts a thread, every rerun)
    loading = nullcontext() if forward.loaded(model) else st.spinner(ui.tr("real_model.loading"))
    with loading:
        cfg = ui.config(real_model.Config, **fields, hide_special=hide, measure=measure)
        r = ui.compute(real_model.run, cfg)
    st.caption(ui.tr(keys["tokens"], n=len(r.tokens), specials=specials))
    ui.prose(*map(ui.display, r.formulas))
    sent = not MEASURES[measure].rows_sum_to_one  # how to read a map of what is sent
    help_ = ui.tr("real_model.contributions_help") if sent else ""
    ui.prose(help_, ui.tr(keys["tokenizer"]), small=True)
    if r.japanese:
        st.warning(ui.tr("real_model.japanese"))
    elif r.unknown:  # an emoji's or another script's characters, all one unknown token
        st.warning(ui.tr("real_model.unknown", n=r.unknown, N=len(r.tokens)))
    with st.expander(
        ui.tr("real_model.token_list", n=len(r.tokens)), expanded=r.japanese or bool(r.unknown)
    ):
        st.code(" · ".join(token_labels(r.tokens, escape=False)), language=None, wrap_lines=True)

if r.truncated:
    st.warning(ui.tr("real_model.truncated", n=len(r.tokens)))
# S13 (γ, β shared by every token; D_ff = 4D) under the map: its controls are bound before
# the map's fragment writes the URL, which keeps only the controls bound so far
real_model_layernorm.section(cfg.text, L, model)
with right:
    if view == "model":
        real_model_grid.head_grid(r, L, H, selected=(layer, head))
    if view == "rollout":
        sent = not MEASURES[measure].rows_sum_to_one
        ui.prose(
            ui.tr("real_model.rollout_help"),
            ui.tr("real_model.rollout_contributions") if sent else "",
        )
    views.explore(cfg, r, views.map_title(view, combine, layer, head, measure), specials)
    views.all_maps_csv(r, measure)
real_model_sinks.section(r, hide, keys=keys)
