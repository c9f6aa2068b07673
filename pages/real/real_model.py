"""A real model (all-MiniLM-L6-v2) run by attnviz's blocks: all heads, one layer, rollout."""

import pandas as pd
import streamlit as st

import ui
from attnviz.charts import heatmap, lines_view
from attnviz.charts.real_model import LINE_MIN_WEIGHT
from attnviz.lessons import real_model
from attnviz.limits import MAX_TEXT_CHARS
from attnviz.tables import long_table
from attnviz.text import token_labels
from ui import mosaic


def pick_head(cell: tuple[int, int]) -> None:
    """Grid click → layer and head sliders (runs before the next script run)."""
    st.session_state["layer"], st.session_state["head"] = cell


st.title(ui.tr("real_model.title"))
st.markdown(ui.tr("real_model.intro"))
with st.spinner(ui.tr("real_model.loading")):
    L, H = ui.compute(real_model.size, real_model.MODEL)
left, right = st.columns([1, 2])
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
    layer = ui.slider("layer", ui.tr("real_model.layer"), 0, L - 1, 2)
    head = ui.slider("head", ui.tr("real_model.head"), 0, H - 1, 0)
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

if r.truncated:
    st.warning(ui.tr("real_model.truncated"))
if view == "rollout":
    title = ui.tr("real_model.rollout", l=layer)
elif combine:
    title = ui.tr("real_model.combined_title", l=layer, how=ui.tr(f"real_model.combine_{combine}"))
else:
    title = ui.tr("real_model.map_title", l=layer, h=head)

with right:
    if view == "model":
        st.subheader(ui.tr("real_model.grid"))
        st.caption(ui.tr("real_model.grid_help"))
        mosaic.mosaic(
            mosaic.data(
                r.mosaic,
                r.png,
                row_labels=[ui.tr("real_model.layer_label", l=a) for a in range(L)],
                col_labels=[ui.tr("real_model.head_label", h=b) for b in range(H)],
                names=[ui.tr("real_model.map_title", l=a, h=b) for a in range(L) for b in range(H)],
                selected=(layer, head),
                alt=ui.tr("real_model.grid"),
                large=ui.presenting(),
            ),
            "grid",
            pick_head,
        )
        st.download_button(
            ui.tr("app.download_png", name="all_heads"),
            r.png,
            file_name="all_heads.png",
            mime="image/png",
            key="png_grid",
            on_click="ignore",
        )
    if view == "rollout":
        st.markdown(ui.tr("real_model.rollout_help"))
    if hide:
        st.caption(ui.tr("real_model.hide_note"))
    heat = heatmap(
        r.shown,
        r.shown_tokens,
        r.shown_tokens,
        title=title,
        zmax=r.zmax,
        x_title=ui.tr("real_model.key"),
        y_title=ui.tr("real_model.query"),
        height=720 if ui.presenting() else 600,
        x_positions=r.keep,
        y_positions=r.keep,
    )
    heat.update_layout(margin=dict(l=100, t=130), title_y=0.99)
    ui.plot(heat, "map", f"{view}_L{layer}")
    ui.csv_button(
        pd.DataFrame(r.shown, index=r.labels, columns=r.labels), f"{view}_L{layer}", "csv"
    )
    if view == "head":
        st.subheader(ui.tr("real_model.lines"))
        st.caption(ui.tr("real_model.lines_note", w=LINE_MIN_WEIGHT))
        ui.plot(lines_view(r.shown, r.shown_tokens), "lines", f"lines_L{layer}")
    if r.attentions is not None:
        labels = token_labels(r.tokens, escape=False)
        ui.csv_button(
            lambda: long_table(r.attentions, labels, "weight", lead=("layer", "head")).set_index(
                "layer"
            ),
            "all_layers_heads",
            "csv_all",
        )
    else:
        st.caption(ui.tr("real_model.all_csv_big", n=len(r.tokens), hi=real_model.CSV_ALL_MAX_N))
