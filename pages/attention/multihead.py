"""Multi-head self-attention (S9–S12): per-head maps for a typed sentence, and every shape."""

import pandas as pd
import streamlit as st

import ui
from attnviz.block import NORMS
from attnviz.charts import maps
from attnviz.lessons import multihead
from attnviz.limits import MAX_D_HEAD, MAX_H, MAX_SEED, MAX_TEXT_CHARS
from attnviz.positional import KINDS, MODES
from attnviz.scoring import SCORES
from attnviz.tables import long_table
from attnviz.text import token_labels

WIDTHS = ["4", "8", "16", "24", "32", "48", "64", "96", "128", "192", "256", "384", "512"]
WIDTHS += ["768", "1024"]  # each has divisors among H = 1 … 32
QK_SCALES = ["0.25", "0.5", "1", "2", "3", "4", "8"]

st.title(ui.tr("multihead.title"))
st.markdown(ui.tr("multihead.intro"))
left, right = st.columns([1, 2])
with left:
    text = ui.text("text", ui.tr("multihead.text"), ui.tr("multihead.default_text"), MAX_TEXT_CHARS)
    D = int(ui.choice_slider("D", ui.tr("multihead.D"), WIDTHS, "64"))
    H = ui.slider("H", ui.tr("multihead.H"), 1, MAX_H, 8)
    auto = ui.toggle("auto", ui.tr("multihead.d_head_auto"), True)
    d_head = None if auto else ui.slider("d_head", ui.tr("multihead.d_head"), 1, MAX_D_HEAD, 8)
    score = ui.select("score", ui.tr("multihead.score"), SCORES, "scaled_dot", labels="names.")
    causal = ui.toggle("causal", ui.tr("multihead.causal"))
    pe = ui.select("pe", ui.tr("multihead.pe"), KINDS, "sinusoidal", labels="names.pe_")
    pe_mode = ui.select(
        "pe_mode", ui.tr("multihead.pe_mode"), MODES, "add", labels="names.mode_", radio=True
    )
    norm = ui.select("norm", ui.tr("multihead.norm"), NORMS, "post", labels="names.norm_")
    seed = ui.number("seed", ui.tr("multihead.seed"), 0, MAX_SEED, 0)
    qk = float(ui.choice_slider("qk", ui.tr("multihead.qk_scale"), QK_SCALES, "1"))
    fields = dict(text=text, D=D, H=H, d_head=d_head, score=score, causal=causal)
    fields |= dict(pe=pe, pe_mode=pe_mode, norm=norm, seed=seed, qk_scale=qk)
    cfg, moved = ui.config(multihead.Config.fit, **fields)
    if moved:
        st.info(ui.explain(moved))
    r = ui.compute(multihead.run, cfg)
    st.caption(ui.tr("multihead.d_head_is", width=r.width, H=cfg.H, d_head=r.d_head))
    if r.d_head >= r.width:
        st.warning(ui.tr("multihead.d_head_wide", d_head=r.d_head, width=r.width))
    for formula in r.formulas:
        st.latex(formula)

with right:
    titles = [ui.tr("multihead.head", h=h) for h in range(cfg.H)]
    show = ui.select(
        "show",
        ui.tr("multihead.show"),
        ["weights", "scores"],
        "weights",
        labels="multihead.",
        radio=True,
    )
    shown = r.weights if show == "weights" else r.scores
    # colours span the data, so near-uniform maps still show their structure; 1/N is marked
    lo, hi = (0.0 if show == "weights" else float(shown.min())), float(shown.max())
    uniform = {1 / len(r.tokens): "1/N"} if show == "weights" else None
    st.subheader(ui.tr("multihead.grid"))
    grid = maps.head_grid(
        shown,
        r.tokens,
        titles=titles,
        zmin=lo,
        zmax=hi,
        marks=uniform,
        width_px=760 if ui.presenting() else 520,  # the plot area beside the colour bar
    )
    image = grid.data[0].type == "image"  # large grids: one pre-coloured picture, no hover
    st.caption(ui.tr("multihead.grid_caption_image" if image else "multihead.grid_caption"))
    if show == "weights":
        st.caption(ui.tr("multihead.range", hi=hi, N=len(r.tokens), uniform=1 / len(r.tokens)))
    ui.plot(grid, "grid", "heads")
    key = "multihead.near_uniform" if r.near_uniform else "multihead.sharper"
    st.markdown(ui.tr(key, lo=r.entropy.min(), hi=r.entropy.max(), qk=cfg.qk_scale))
    sharpness = pd.DataFrame(
        {ui.tr("multihead.col_entropy"): r.entropy, ui.tr("multihead.col_max"): r.max_weight},
        index=pd.Index(titles, name=ui.tr("multihead.col_head")),
    )
    st.dataframe(sharpness.T)
    h = ui.slider("head", ui.tr("multihead.big_head"), 0, cfg.H - 1, 0) if cfg.H > 1 else 0
    fig = maps.heatmap(
        shown[h],
        r.tokens,
        r.tokens,
        title=titles[h],
        zmin=lo,
        zmax=hi,
        marks=uniform,
        x_title=ui.tr("multihead.key"),
        y_title=ui.tr("multihead.query"),
        height=720 if ui.presenting() else 520,
    )
    ui.plot(fig, "head_map", f"head{h}")
    labels = token_labels(r.tokens, escape=False)
    ui.csv_button(
        pd.DataFrame(shown[h], index=labels, columns=labels), f"head{h}_{show}", "csv_head"
    )
    ui.csv_button(
        lambda: long_table(shown, labels, show).set_index("head"), f"all_heads_{show}", "csv_all"
    )
    st.subheader(ui.tr("multihead.pipeline"))
    ui.formula_table(r.pipeline)
