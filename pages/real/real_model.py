"""A real model (all-MiniLM-L6-v2) run by attnviz's blocks: all heads, one layer, rollout."""

import pandas as pd
import streamlit as st

import ui
from attnviz import charts
from attnviz.lessons import rollout as ro
from attnviz.limits import MAX_TEXT_CHARS
from attnviz.pretrained import load_pretrained
from ui import mosaic

L, H, MIN_LINE = 6, 12, 0.02


@st.cache_resource(show_spinner=False)
def model():
    return load_pretrained("all-MiniLM-L6-v2")


@st.cache_data(max_entries=32, show_spinner=False)
def compute(text):
    r = model().encode(text, truncate=True)
    return r, ro.rollout(r.attentions)


@st.cache_data(max_entries=32, show_spinner=False)
def grid_png(text):
    """The 6 × 12 mosaic, its geometry and PNG (the slow part), cached per text."""
    r, _ = compute(text)
    m = charts.mosaic(r.attentions)
    return m, m.png()


def pick_head(cell: tuple[int, int]) -> None:
    """Grid click → layer and head sliders (runs before the next script run)."""
    st.session_state["layer"], st.session_state["head"] = cell


st.title(ui.tr("real_model.title"))
st.markdown(ui.tr("real_model.intro"))
left, right = st.columns([1, 2])
with left:
    text = ui.text(
        "text", ui.tr("real_model.text"), ui.tr("real_model.default_text"), MAX_TEXT_CHARS
    )
    view = ui.select(
        "show",
        ui.tr("real_model.view"),
        ["model", "head", "rollout"],
        "model",
        labels="real_model.view_",
        radio=True,
    )
    layer = ui.slider("layer", ui.tr("real_model.layer"), 0, L - 1, 2)
    head = ui.slider("head", ui.tr("real_model.head"), 0, H - 1, 0)
    combine = None
    if view == "head" and ui.toggle("all_heads", ui.tr("real_model.all_heads")):
        combine = ui.select(
            "combine",
            ui.tr("real_model.combine"),
            ro.COMBINE,
            "mean",
            labels="real_model.combine_",
            radio=True,
        )
    hide = ui.toggle("hide_special", ui.tr("real_model.hide_special"))

try:
    with st.spinner(ui.tr("real_model.loading")):
        r, rolled = compute(text)
except ValueError as err:
    ui.error_box(err)
    st.stop()

with left:
    st.caption(ui.tr("real_model.tokens", n=len(r.tokens)))
    st.latex(
        r"a^{(l,h)}_{ij} = \mathrm{softmax}_j\Big(\frac{(x_i W^Q_h)(x_j W^K_h)^\top}"
        r"{\sqrt{D'}}\Big)"
        if view != "rollout"
        else r"R_l = \mathrm{rownorm}\Big(\tfrac{1}{H}\sum_h A_{l,h} + I\Big)\,R_{l-1}"
    )
if r.truncated:
    st.warning(ui.tr("real_model.truncated"))
keep = ro.keep_positions(r.tokens, hide)
tokens = [r.tokens[i] for i in keep]
if view == "rollout":
    shown = rolled[layer][keep][:, keep]
    title = ui.tr("real_model.rollout", l=layer)
elif combine:
    shown = ro.combine_heads(r.attentions[layer], combine)[keep][:, keep]
    title = ui.tr("real_model.combined_title", l=layer, how=ui.tr(f"real_model.combine_{combine}"))
else:
    shown = r.attentions[layer, head][keep][:, keep]
    title = ui.tr("real_model.map_title", l=layer, h=head)
zmax = float(shown.max()) if hide else 1.0

with right:
    if view == "model":
        st.subheader(ui.tr("real_model.grid"))
        st.caption(ui.tr("real_model.grid_help"))
        m, png = grid_png(text)
        row_labels = [ui.tr("real_model.layer_label", l=a) for a in range(L)]
        col_labels = [ui.tr("real_model.head_label", h=b) for b in range(H)]
        mosaic.mosaic(
            mosaic.data(
                m,
                png,
                row_labels=row_labels,
                col_labels=col_labels,
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
            png,
            file_name="all_heads.png",
            mime="image/png",
            key="png_grid",
            on_click="ignore",
        )
    if view == "rollout":
        st.markdown(ui.tr("real_model.rollout_help"))
    if hide:
        st.caption(ui.tr("real_model.hide_note"))
    heat = charts.heatmap(
        shown,
        tokens,
        tokens,
        title=title,
        zmax=zmax,
        x_title=ui.tr("real_model.key"),
        y_title=ui.tr("real_model.query"),
        height=720 if ui.presenting() else 600,
        x_positions=keep,
        y_positions=keep,
    )
    heat.update_layout(margin=dict(l=100, t=130), title_y=0.99)
    ui.plot(heat, "map", f"{view}_L{layer}")
    labels = ro.labels(r.tokens)
    labels = [labels[i] for i in keep]
    ui.csv_button(pd.DataFrame(shown, index=labels, columns=labels), f"{view}_L{layer}", "csv")
    if view == "head":
        st.subheader(ui.tr("real_model.lines"))
        st.caption(ui.tr("real_model.lines_note", w=MIN_LINE))
        ui.plot(charts.lines_view(shown, tokens, min_weight=MIN_LINE), "lines", f"lines_L{layer}")
    if len(r.tokens) <= 64:
        ui.csv_button(
            ro.long_table(r.attentions, r.tokens).set_index("layer"), "all_layers_heads", "csv_all"
        )
    else:
        st.caption(ui.tr("real_model.all_csv_big", n=len(r.tokens)))
