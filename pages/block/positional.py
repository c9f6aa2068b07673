"""Positional encodings (S15, S16): sinusoidal table, p_iᵀp_j, learned, add vs concat, a
repeated word with and without PE."""

import pandas as pd
import streamlit as st

import ui
from attnviz.charts import positional as charts
from attnviz.lessons import positional, training_race
from attnviz.limits import MAX_D, MAX_SEED
from attnviz.positional import MODES

WIDTHS = [str(d) for d in range(2, positional.MAX_POSITIONS + 1, 2)]  # the old slider's stops

st.title(ui.tr("positional.title"))
st.markdown(ui.tr("positional.intro"))
race = training_race.learned_positions(st.session_state)
left, right = st.columns([1, 2])
with left:
    kind = ui.select(
        "kind",
        ui.tr("positional.kind"),
        positional.kinds(race),
        "sinusoidal",
        labels="positional.kind_",
    )
    N = ui.slider("N", ui.tr("positional.N"), 1, positional.MAX_POSITIONS, 50)
    D = int(ui.choice_slider("D", ui.tr("positional.D"), WIDTHS, "64"))
    seed = ui.number("seed", ui.tr("positional.seed"), 0, MAX_SEED, 0)
    cosine = ui.toggle("cosine", ui.tr("positional.cosine"), False)
if race is None:
    st.caption(ui.tr("positional.no_race"))
elif kind in positional.RACE_TABLES:
    st.caption(ui.tr("positional.race_shape", N=race.cfg.n, D=race.cfg.D))
st.subheader(ui.tr("positional.width_heading"))
d_pos = ui.slider("d_pos", ui.tr("positional.d_pos"), 1, MAX_D, 64)
fields = dict(kind=kind, N=N, D=D, seed=seed, cosine=cosine, d_pos=d_pos, race=race)
cfg = ui.config(positional.Config, **fields)
r = ui.compute(positional.run, cfg)
for formula in r.widths.formulas:
    st.latex(formula)
st.markdown(ui.tr("positional.widths", D=D, d_pos=d_pos, add=r.widths.add, concat=r.widths.concat))
with left:
    for formula in r.formulas:
        st.latex(formula)
with right:
    ui.plot(
        charts.matrix(
            r.P,
            title=ui.tr("positional.matrix"),
            x_title=ui.tr("positional.dimension"),
            y_title=ui.tr("positional.position"),
        ),
        "pe_matrix",
        f"pe_{kind}",
    )
    ui.csv_button(pd.DataFrame(r.P), f"pe_{kind}", "csv_pe")
    ui.plot(
        charts.matrix(
            r.S,
            title=ui.tr("positional.similarity"),
            x_title=ui.tr("positional.position"),
            y_title=ui.tr("positional.position"),
        ),
        "pe_sim",
        f"pe_{kind}_similarity",
    )
    st.caption(ui.tr("positional.similarity_note"))
    ui.csv_button(pd.DataFrame(r.S), f"pe_{kind}_similarity", "csv_sim")

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
same = ui.config(positional.SameWord, text=text, mode=mode, seed=seed)
two = ui.compute(positional.same_word, same)
if two is None:
    st.info(ui.tr("positional.no_repeat"))
    st.stop()
for formula in two.formulas:
    st.latex(formula)
word = two.tokens[two.i]
cols = st.columns(2)
for col, pe in zip(cols, ("none", "sinusoidal"), strict=True):
    label = ui.tr("positional.without" if pe == "none" else "positional.with")
    rows = {ui.tr("positional.at", k=k): two.rows[pe][n] for n, k in enumerate((two.i, two.j))}
    with col:
        ui.plot(
            charts.rows(
                rows,
                two.tokens,
                y_title=ui.tr("positional.weight"),
                title=ui.tr("positional.rows_title", word=word, i=two.i, j=two.j, pe=label),
            ),
            f"rows_{pe}",
            f"rows_{pe}",
        )
st.markdown(ui.tr("positional.row_diff", none=two.diff["none"], sin=two.diff["sinusoidal"]))
ui.csv_button(two.table, "same_word_rows", "csv_rows")
