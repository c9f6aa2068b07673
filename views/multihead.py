"""Multi-head self-attention (S9–S12): per-head maps for a typed sentence, and every shape."""

import numpy as np
import pandas as pd
import streamlit as st

import ui
from attnviz import charts
from attnviz.block import NORMS
from attnviz.latex import MULTIHEAD
from attnviz.lessons import multihead
from attnviz.limits import MAX_D, MAX_H, MAX_SEED, MAX_TEXT_CHARS
from attnviz.positional import KINDS, MODES
from attnviz.scoring import SCORES

WIDTHS = [
    "4",
    "8",
    "16",
    "24",
    "32",
    "48",
    "64",
    "96",
    "128",
    "192",
    "256",
    "384",
    "512",
    "768",
    "1024",
]  # with divisors for H = 1 … 32


@st.cache_data(max_entries=64, show_spinner=False)
def compute(text, D, H, d_head, score, causal, pe, pe_mode, norm, seed):
    return multihead.run(text, D, H, d_head, score, causal, pe, pe_mode, norm, seed)


def long_table(maps: np.ndarray, labels: list[str], value: str) -> pd.DataFrame:
    """One row per (head, query, key), for the CSV of all heads."""
    H, N = maps.shape[0], len(labels)
    return pd.DataFrame(
        {
            "head": np.repeat(np.arange(H), N * N),
            "query": np.tile(np.repeat(labels, N), H),
            "key": np.tile(labels, H * N),
            value: maps.reshape(-1),
        }
    ).set_index("head")


st.title(ui.tr("multihead.title"))
st.markdown(ui.tr("multihead.intro"))
left, right = st.columns([1, 2])
with left:
    text = ui.text("text", ui.tr("multihead.text"), ui.tr("multihead.default_text"), MAX_TEXT_CHARS)
    D = int(ui.select("D", ui.tr("multihead.D"), WIDTHS, "64"))
    H = ui.slider("H", ui.tr("multihead.H"), 1, MAX_H, 8)
    auto = ui.toggle("auto", ui.tr("multihead.d_head_auto"), True)
    d_head = None
    if auto and D % H:
        divisors = [h for h in range(1, MAX_H + 1) if D % h == 0]
        H_ok = max(h for h in divisors if h <= H)
        st.info(ui.tr("multihead.H_not_divisor", D=D, divisors=divisors, H=H_ok))
        H = H_ok
    if not auto:
        d_head = ui.slider("d_head", ui.tr("multihead.d_head"), 1, MAX_D // 4, max(1, D // H))
    score = ui.select("score", ui.tr("multihead.score"), SCORES, "scaled_dot", labels="names.")
    causal = ui.toggle("causal", ui.tr("multihead.causal"))
    pe = ui.select("pe", ui.tr("multihead.pe"), KINDS, "sinusoidal", labels="names.pe_")
    pe_mode = ui.select(
        "pe_mode",
        ui.tr("multihead.pe_mode"),
        MODES,
        "add",
        labels="names.mode_",
        radio=True,
    )
    norm = ui.select("norm", ui.tr("multihead.norm"), NORMS, "post", labels="names.norm_")
    seed = ui.number("seed", ui.tr("multihead.seed"), 0, MAX_SEED, 0)
    st.latex(MULTIHEAD)

try:
    r = compute(text, D, H, d_head, score, causal, pe, pe_mode, norm, seed)
except ValueError as err:
    ui.error_box(err)
    st.stop()

with right:
    titles = [ui.tr("multihead.head", h=h) for h in range(H)]
    show = ui.select(
        "show",
        ui.tr("multihead.show"),
        ["weights", "scores"],
        "weights",
        labels="multihead.",
        radio=True,
    )
    maps = r.weights if show == "weights" else r.scores
    lo, hi = (0.0, 1.0) if show == "weights" else (float(maps.min()), float(maps.max()))
    st.subheader(ui.tr("multihead.grid"))
    grid = charts.head_grid(
        maps,
        r.tokens,
        titles=titles,
        zmin=lo,
        zmax=hi,
        width_px=760 if ui.presenting() else 520,  # the plot area beside the colour bar
    )
    image = grid.data[0].type == "image"  # large grids: one pre-coloured picture, no hover
    st.caption(ui.tr("multihead.grid_caption_image" if image else "multihead.grid_caption"))
    ui.plot(grid, "grid", "heads")
    h = ui.slider("head", ui.tr("multihead.big_head"), 0, H - 1, 0) if H > 1 else 0
    fig = charts.heatmap(
        maps[h],
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
    labels = [f"{i}:{tok}" for i, tok in enumerate(r.tokens)]
    ui.csv_button(
        pd.DataFrame(maps[h], index=labels, columns=labels), f"head{h}_{show}", "csv_head"
    )
    ui.csv_button(lambda: long_table(maps, labels, show), f"all_heads_{show}", "csv_all")
    st.subheader(ui.tr("multihead.pipeline"))
    st.table(r.pipeline.set_index("step"))
