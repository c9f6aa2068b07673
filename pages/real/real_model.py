"""A real model (all-MiniLM-L6-v2) run by attnviz's blocks: all heads, one layer, rollout;
one weight followed through its formula, a head's query–key space, and attention sinks.

The controls on the left (and a click in the mosaic) rerun the page; the map and what
hangs on it (the weight followed, the query–key pictures) are one ``st.fragment``.
"""

import pandas as pd
import streamlit as st

import ui
from attnviz import sinks
from attnviz.charts import lines_view
from attnviz.charts.real_model import LINE_MIN_WEIGHT
from attnviz.charts.sinks import sink_grid
from attnviz.lessons import real_encode, real_model, real_probe, real_sinks
from attnviz.limits import MAX_TEXT_CHARS
from attnviz.tables import long_table
from attnviz.text import token_labels
from ui import mosaic, steps


def pick_head(cell: tuple[int, int]) -> None:
    """Grid click → layer and head sliders (from 1; runs before the next script run)."""
    st.session_state["layer"], st.session_state["head"] = cell[0] + 1, cell[1] + 1


def pick_cell(cell: tuple[int, int]) -> None:
    """Map cell (query position, key position) → the sliders i and j (from 1), steps on."""
    st.session_state["i"], st.session_state["j"] = cell[0] + 1, cell[1] + 1
    st.session_state["follow"] = True


class TextArea:
    """``ui.text`` draws with ``where.text_input``: this draws the same URL-kept text as an
    area of several lines."""

    text_input = staticmethod(st.text_area)


def space(cfg: real_model.Config, i: int) -> None:
    """Head h's query–key picture on the sentence, then pooled with the sentences typed."""
    layer, head = cfg.layer, cfg.head
    st.subheader(ui.tr("real_model.qk_title", l=layer + 1, h=head + 1))
    st.caption(ui.tr("steps.qk_intro"))
    k, centre = steps.qk_controls("space")
    q = ui.compute(real_probe.qk, real_probe.Probe(cfg.text, layer, head, i, k, centre))
    steps.qk_view(q, key="space")
    st.subheader(ui.tr("real_model.pool_title", l=layer + 1, h=head + 1))
    lines = ui.text(
        "pool",
        ui.tr(
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
        ui.error_box(err)
        return
    if more:
        pooled = ui.compute(real_probe.qk, probe)
        names = [ui.tr("steps.qk_sentence", s=n + 1) for n in range(len(more) + 1)]
        st.caption(ui.tr("real_model.pool_caption"))
        csv = ui.tr("real_model.dl_pooled")
        steps.qk_view(pooled, key="pooled", sentence_names=names, csv_label=csv)
    else:
        st.caption(ui.tr("real_model.pool_empty"))


@st.fragment
def explore(cfg: real_model.Config, r: real_model.Result, title: str) -> None:
    N, layer, head = len(r.tokens), cfg.layer, cfg.head
    map_slot = st.container()
    left, right = st.columns(2)
    rollout = cfg.view == "rollout"  # no head to follow a weight of: greyed, values kept
    i = ui.slider("i", ui.tr("real_model.pick_i"), 1, N, 1, where=left, disabled=rollout) - 1
    j = ui.slider("j", ui.tr("real_model.pick_j"), 1, N, 1, where=right, disabled=rollout) - 1
    with map_slot:
        if cfg.hide_special:
            st.caption(ui.tr("real_model.hide_note"))
        look = dict(
            title=title,
            zmin=0.0,
            zmax=r.zmax,
            x_title=ui.tr("real_model.key"),
            y_title=ui.tr("real_model.query"),
            height=720 if ui.presenting() else 600,
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
            on_pick=pick_cell if cfg.one_head else None,
            **look,
        )
        st.caption(ui.tr("real_model.map_help" if cfg.one_head else "real_model.map_help_combined"))
        ui.csv_button(
            pd.DataFrame(r.shown, index=r.labels, columns=r.labels),
            name,
            "csv",
            label=ui.tr("real_model.dl_map", title=title),
        )
    if cfg.view == "head":
        st.subheader(ui.tr("real_model.lines"))
        st.caption(ui.tr("real_model.lines_note", w=LINE_MIN_WEIGHT))
        ui.plot(lines_view(r.shown, r.shown_tokens), "lines", f"lines_L{layer + 1}")
    if not cfg.one_head:
        st.info(ui.tr("real_model.steps_one_head"))
    elif ui.toggle("follow", ui.tr("steps.show_steps")):  # a click on a cell turns it on
        pick = real_probe.Pick(cfg.text, layer, head, i, j, cfg.hide_special)
        s = ui.compute(real_probe.follow, pick)
        where = ui.tr("real_model.map_title", l=layer + 1, h=head + 1)
        steps.follow(s.steps, s.formulas, r.tokens, key="steps", where=where, extra=s.renormalised)
        if cfg.hide_special and s.renormalised is None:
            st.caption(ui.tr("real_model.steps_hidden"))
        else:  # the map's cell: the softmax line's last number, or the rescaling line's
            cell = "real_model.cell_renormalised" if s.renormalised else "steps.cell_weights"
            st.caption(ui.tr(cell, i=i + 1, j=j + 1, value=s.cell))
    if ui.toggle("qkview", ui.tr("steps.show_qk"), disabled=rollout) and not rollout:
        space(cfg, i)
    mosaic.keep_in_url()


st.title(ui.tr("real_model.title"))
st.markdown(ui.tr("real_model.intro"))
with st.spinner(ui.tr("real_model.loading")):
    L, H = ui.compute(real_encode.size, real_encode.MODEL)
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
    layer = ui.slider("layer", ui.tr("real_model.layer"), 1, L, 3) - 1
    # rollout averages the heads: the slider stays, greyed, so that its value is kept
    head = ui.slider("head", ui.tr("real_model.head"), 1, H, 1, disabled=view == "rollout") - 1
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
    hide = ui.toggle("hide_special", ui.tr("real_model.hide_special"))
    fields = dict(text=text, view=view, layer=layer, head=head, combine=combine)
    cfg = ui.config(real_model.Config, **fields, hide_special=hide)
    r = ui.compute(real_model.run, cfg)
    st.caption(ui.tr("real_model.tokens", n=len(r.tokens)))
    for formula in r.formulas:
        st.latex(formula)
    st.caption(ui.tr("real_model.wordpiece"))
    if r.japanese:
        st.warning(ui.tr("real_model.japanese"))
    with st.expander(ui.tr("real_model.token_list", n=len(r.tokens)), expanded=r.japanese):
        st.code(" · ".join(token_labels(r.tokens, escape=False)), language=None, wrap_lines=True)

if r.truncated:
    st.warning(ui.tr("real_model.truncated"))
if view == "rollout":
    title = ui.tr("real_model.rollout", l=layer + 1)
elif combine:
    how = ui.tr(f"real_model.combine_{combine}")
    title = ui.tr("real_model.combined_title", l=layer + 1, how=how)
else:
    title = ui.tr("real_model.map_title", l=layer + 1, h=head + 1)

with right:
    if view == "model":
        st.subheader(ui.tr("real_model.grid"))
        st.caption(ui.tr("real_model.grid_help"))
        mosaic.mosaic(
            mosaic.data(
                r.mosaic,
                r.png,
                row_labels=[ui.tr("real_model.layer_label", l=a + 1) for a in range(L)],
                col_labels=[ui.tr("real_model.head_label", h=b + 1) for b in range(H)],
                names=[
                    ui.tr("real_model.map_title", l=a + 1, h=b + 1)
                    for a in range(L)
                    for b in range(H)
                ],
                selected=(layer, head),
                alt=ui.tr("real_model.grid"),
                large=ui.presenting(),
            ),
            "grid",
            pick_head,
        )
        st.download_button(
            ui.download_label("png", ui.tr("real_model.dl_grid")),
            r.png,
            file_name="all_heads.png",
            mime="image/png",
            key="png_grid",
            on_click="ignore",
        )
    if view == "rollout":
        st.markdown(ui.tr("real_model.rollout_help"))
    explore(cfg, r, title)
    if r.attentions is not None:
        labels = token_labels(r.tokens, escape=False)
        ui.csv_button(
            lambda: long_table(r.attentions, labels, "weight", lead=("layer", "head")).set_index(
                "layer"
            ),
            "all_layers_heads",
            "csv_all",
            label=ui.tr("real_model.dl_all"),
        )
    else:
        st.caption(ui.tr("real_model.all_csv_big", n=len(r.tokens), hi=real_model.CSV_ALL_MAX_N))

st.subheader(ui.tr("real_model.sinks_title"))
shown = [c for c in sinks.CATEGORIES if not (hide and c in real_sinks.HIDDEN)]
st.markdown(ui.tr("real_model.sinks_intro_hidden" if hide else "real_model.sinks_intro"))
sink_name = ui.tr(f"real_model.sink_{r.sinks.sink}")
why = "real_model.sinks_why" if r.sinks.idle else "real_model.sinks_plain"
st.markdown(ui.tr(why, w=r.sinks.weight, m=r.sinks.carried, sink=sink_name))
for formula in r.sinks.formulas:
    st.latex(formula)
st.caption(ui.tr("real_model.sinks_moved"))
grid = sink_grid(
    r.sinks.shares[[sinks.CATEGORIES.index(c) for c in shown]],
    [ui.tr(f"real_model.sink_{c}") for c in shown],
    layer_label=ui.tr("real_model.layer_label", l="{l}"),
    head_label=ui.tr("real_model.head_label", h="{h}"),
    value_name=ui.tr("real_model.sink_value"),
)
ui.plot(grid, "sinks", "sinks")
ui.csv_button(
    real_sinks.sink_table(r.sinks, shown), "sinks", "csv_sinks", label=ui.tr("real_model.dl_sinks")
)
