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
    fields = dict(text=text, D=D, H=H, d_head=d_head, score=score, causal=causal)
    fields |= dict(pe=pe, pe_mode=pe_mode, norm=norm, seed=seed)
    cfg, moved = ui.config(multihead.Config.fit, **fields)
    if moved:
        st.info(ui.explain(moved))
    r = ui.compute(multihead.run, cfg)
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
    lo, hi = (0.0, 1.0) if show == "weights" else (float(shown.min()), float(shown.max()))
    st.subheader(ui.tr("multihead.grid"))
    grid = maps.head_grid(
        shown,
        r.tokens,
        titles=titles,
        zmin=lo,
        zmax=hi,
        width_px=760 if ui.presenting() else 520,  # the plot area beside the colour bar
    )
    image = grid.data[0].type == "image"  # large grids: one pre-coloured picture, no hover
    st.caption(ui.tr("multihead.grid_caption_image" if image else "multihead.grid_caption"))
    ui.plot(grid, "grid", "heads")
    h = ui.slider("head", ui.tr("multihead.big_head"), 0, cfg.H - 1, 0) if cfg.H > 1 else 0
    fig = maps.heatmap(
        shown[h],
        r.tokens,
        r.tokens,
        title=titles[h],
        zmin=lo,
        zmax=hi,
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
