"""Positional encodings (S15, S16): sinusoidal table, p_iᵀp_j, learned, add vs concat, a
repeated word with and without PE."""

import numpy as np
import pandas as pd
import streamlit as st

import ui
from attnviz.charts import block as charts
from attnviz.lessons import positions
from attnviz.lessons.block_latex import ADD_CONCAT, SINUSOIDAL
from attnviz.limits import MAX_D, MAX_N, MAX_SEED
from attnviz.positional import MODES

table = st.cache_data(max_entries=32, show_spinner=False)(positions.table)
same_word = st.cache_data(max_entries=32, show_spinner=False)(positions.same_word)

st.title(ui.tr("positional.title"))
st.markdown(ui.tr("positional.intro"))
race = st.session_state.get("race_pe")
kinds = ["sinusoidal", "learned"] + (["race_post", "race_pre"] if race else [])
left, right = st.columns([1, 2])
with left:
    kind = ui.select(
        "kind",
        ui.tr("positional.kind"),
        kinds,
        "sinusoidal",
        labels="positional.kind_",
    )
    N = ui.slider("N", ui.tr("positional.N"), 1, min(MAX_N, 256), 50)
    D = ui.slider("D", ui.tr("positional.D"), 2, min(MAX_D, 256), 64, step=2)
    seed = ui.number("seed", ui.tr("positional.seed"), 0, MAX_SEED, 0)
    cosine = ui.toggle("cosine", ui.tr("positional.cosine"), False)
    st.latex(SINUSOIDAL)
    st.latex(r"S_{ij} = p_i^\top p_j")
if not race:
    st.caption(ui.tr("positional.no_race"))
if kind.startswith("race_"):
    P = race[kind.removeprefix("race_")]
    st.caption(ui.tr("positional.race_shape", N=P.shape[0], D=P.shape[1]))
else:
    P = table(kind, N, D, seed)
S = positions.similarity(P, cosine)
with right:
    ui.plot(
        charts.matrix(
            P,
            title=ui.tr("positional.matrix"),
            x_title=ui.tr("positional.dimension"),
            y_title=ui.tr("positional.position"),
        ),
        "pe_matrix",
        f"pe_{kind}",
    )
    ui.csv_button(pd.DataFrame(P), f"pe_{kind}", "csv_pe")
    ui.plot(
        charts.matrix(
            S,
            title=ui.tr("positional.similarity"),
            x_title=ui.tr("positional.position"),
            y_title=ui.tr("positional.position"),
        ),
        "pe_sim",
        f"pe_{kind}_similarity",
    )
    st.caption(ui.tr("positional.similarity_note"))
    ui.csv_button(pd.DataFrame(S), f"pe_{kind}_similarity", "csv_sim")

st.subheader(ui.tr("positional.width_heading"))
d_pos = ui.slider("d_pos", ui.tr("positional.d_pos"), 1, MAX_D, 64)
st.latex(ADD_CONCAT)
w = positions.widths(D, d_pos)
st.markdown(ui.tr("positional.widths", D=D, d_pos=d_pos, **w))

st.subheader(ui.tr("positional.same_word"))
text = ui.text("text", ui.tr("positional.text"), ui.tr("positional.default_text"), 300)
mode = ui.select(
    "mode",
    ui.tr("positional.mode"),
    MODES,
    "add",
    labels="names.mode_",
    radio=True,
)
try:
    r = same_word(text, 64, seed, mode)
except ValueError as err:
    ui.error_box(err)
    st.stop()
if r is None:
    st.info(ui.tr("positional.no_repeat"))
    st.stop()
word = r.tokens[r.i]
cols = st.columns(2)
for col, pe in zip(cols, ("none", "sinusoidal"), strict=True):
    label = ui.tr("positional.without" if pe == "none" else "positional.with")
    rows = {ui.tr("positional.at", k=k): r.rows[pe][n] for n, k in enumerate((r.i, r.j))}
    with col:
        ui.plot(
            charts.rows(
                rows,
                r.tokens,
                y_title=ui.tr("positional.weight"),
                title=ui.tr("positional.rows_title", word=word, i=r.i, j=r.j, pe=label),
            ),
            f"rows_{pe}",
            f"rows_{pe}",
        )
diff = {pe: float(np.abs(r.rows[pe][0] - r.rows[pe][1]).max()) for pe in r.rows}
st.markdown(ui.tr("positional.row_diff", none=diff["none"], sin=diff["sinusoidal"]))
long = pd.DataFrame(
    {f"{pe}@{k}": r.rows[pe][n] for pe in r.rows for n, k in enumerate((r.i, r.j))}, index=r.tokens
)
ui.csv_button(long, "same_word_rows", "csv_rows")
