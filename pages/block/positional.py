"""Positional encodings (S15, S16): the table E = [p_1 … p_N]ᵀ, p_iᵀp_j, learned tables,
added vs concatenated, a repeated word with and without positions."""

import pandas as pd
import streamlit as st

import ui
from attnviz.charts import positional as charts
from attnviz.lessons import positional
from attnviz.limits import MAX_D, MAX_SEED
from pages.block import positional_same_word
from ui.keys import RACE_POSITIONS

WIDTHS = [str(d) for d in range(2, positional.MAX_POSITIONS + 1, 2)]  # the old slider's stops

ui.prose(ui.tr("positional.intro"), heading=ui.tr("positional.title"), level=1)
st.caption(ui.tr("positional.symbols"))
race = st.session_state.get(RACE_POSITIONS)  # the latest training race's, or None
left, right = ui.split([1, 2])
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
if race is None and positional.learned(kind):  # a trained table is one race away
    st.caption(ui.tr("positional.no_race"))
elif kind in positional.RACE_TABLES:
    st.caption(ui.tr("positional.race_shape", N=race.cfg.n, D=race.cfg.D))
st.subheader(ui.tr("positional.width_heading"))
d_pos = ui.slider("d_pos", ui.tr("positional.d_pos"), 1, MAX_D, 64)
fields = dict(kind=kind, N=N, D=D, seed=seed, cosine=cosine, d_pos=d_pos, race=race)
cfg = ui.config(positional.Config, **fields)
r = ui.compute(positional.run, cfg)
ui.prose(
    *map(ui.display, r.widths.formulas),
    ui.tr("positional.widths", D=D, d_pos=d_pos, add=r.widths.add, concat=r.widths.concat),
)
with left:
    ui.prose(*map(ui.display, r.formulas))
positions = pd.RangeIndex(1, len(r.E) + 1, name=ui.tr("positional.position"))  # i = 1 … N
with right:
    ui.plot(
        lambda: charts.matrix(
            r.E,
            title=ui.tr("positional.matrix"),
            x_title=ui.tr("positional.dimension"),
            y_title=ui.tr("positional.position"),
        ),
        "pe_matrix",
        f"pe_{kind}",
    )
    dims = pd.RangeIndex(1, r.E.shape[1] + 1, name=ui.tr("positional.dimension"))
    ui.csv_button(
        lambda: pd.DataFrame(r.E, index=positions, columns=dims),  # built when clicked
        ui.tr("positional.csv_E"),
        "csv_pe",
    )
    ui.plot(
        lambda: charts.matrix(
            r.G,
            title=ui.tr("positional.similarity_cosine" if cosine else "positional.similarity"),
            x_title=ui.tr("positional.position_j"),
            y_title=ui.tr("positional.position"),
        ),
        "pe_sim",
        f"pe_{kind}_similarity",
    )
    ui.prose(ui.tr(positional.note(kind)), ui.tr("positional.note_reads"), small=True)
    ui.csv_button(
        lambda: pd.DataFrame(r.G, index=positions, columns=positions.rename(None)),
        ui.tr("positional.csv_similarity"),
        "csv_sim",
    )

positional_same_word.draw()
