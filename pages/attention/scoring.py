"""Scoring functions (S1–S6, S8): one query against N sources, every score side by side."""

import numpy as np
import pandas as pd
import streamlit as st

import ui
from attnviz import charts
from attnviz.latex import ATTEND_ANY_SCORE, SINGLE_QUERY
from attnviz.lessons import scoring
from attnviz.limits import MAX_MLP_HIDDEN, MAX_N, MAX_SEED, MAX_TEXT_CHARS
from attnviz.scoring import FORMULAS, SCORES

WIDTHS = [str(2**k) for k in range(1, 11)]


@st.cache_data(max_entries=64, show_spinner=False)
def compute(source, text, query, N, D, seed, mlp_hidden, shuffle_seed):
    return scoring.run(source, text, query, N, D, seed, mlp_hidden, shuffle_seed)


st.title(ui.tr("scoring.title"))
st.markdown(ui.tr("scoring.intro"))
left, right = st.columns([1, 2])
with left:
    source = ui.select(
        "source",
        ui.tr("scoring.source"),
        scoring.SOURCES,
        "text",
        labels="scoring.source_",
        radio=True,
    )
    if source == "text":
        text = ui.text("text", ui.tr("scoring.text"), ui.tr("scoring.default_text"), MAX_TEXT_CHARS)
        query = ui.text("query", ui.tr("scoring.query"), ui.tr("scoring.default_query"), 50)
        N = 0
    else:
        text, query = "", "q"
        N = ui.slider("N", ui.tr("scoring.N"), 1, MAX_N, 8)
    D = int(ui.select("D", ui.tr("scoring.D"), WIDTHS, "64"))
    score = ui.select("score", ui.tr("scoring.score"), SCORES, "scaled_dot", labels="names.")
    mlp_hidden = (
        ui.slider("hidden", ui.tr("scoring.mlp_hidden"), 1, MAX_MLP_HIDDEN, 16)
        if score == "mlp"
        else 16
    )
    seed = ui.number("seed", ui.tr("scoring.seed"), 0, MAX_SEED, 0)
    shuffle_seed = ui.number("shuffle", ui.tr("scoring.shuffle_seed"), 0, MAX_SEED, 1)
    st.latex(FORMULAS[score])
    st.latex(SINGLE_QUERY if score == "scaled_dot" else ATTEND_ANY_SCORE)  # S8 is scaled_dot

try:
    r = compute(source, text, query, N, D, seed, mlp_hidden, shuffle_seed)
except ValueError as err:
    ui.error_box(err)
    st.stop()

i = r.names.index(score)
labels = charts.position_labels(r.tokens)
with right:
    ui.plot(
        charts.weights_bar(r.scores[i], r.tokens, title=ui.tr("scoring.scores_title")),
        "scores",
        "scores",
    )
    ui.plot(
        charts.weights_bar(r.weights[i], r.tokens, title=ui.tr("scoring.weights_title")),
        "weights",
        "weights",
    )
    k = min(D, 32)
    fig = charts.weights_bar(
        r.attended[i][:k],
        [str(j) for j in range(k)],
        title=ui.tr("scoring.attended_title", k=k, D=D),
        height=260,
    )
    fig.update_xaxes(title=ui.tr("scoring.component"))
    ui.plot(fig, "attended", "attended")
    table = pd.DataFrame({"r": r.scores[i], "a": r.weights[i]}, index=labels)
    ui.csv_button(table, f"{score}_scores_weights", "csv_one")
    attended = pd.DataFrame({"q_tilde": r.attended[i]}, index=pd.RangeIndex(D, name="component"))
    ui.csv_button(attended, f"{score}_attended_vector", "csv_attended")

st.subheader(ui.tr("scoring.all_title"))
st.caption(ui.tr("scoring.all_caption"))
ui.plot(charts.heatmap(r.weights, r.tokens, r.names, height=300), "all", "all_scores")
ui.csv_button(pd.DataFrame(r.weights, index=r.names, columns=labels), "all_weights", "csv_all")

st.subheader(ui.tr("scoring.shuffle_title"))
st.caption(ui.tr("scoring.shuffle_caption"))
before = r.weights[i][r.perm]  # each source's original weight, at its new position
after = r.shuffled_weights[i]
c1, c2 = st.columns(2)
c1.metric(ui.tr("scoring.follow_metric"), f"{np.abs(after - before).max():.2e}")
c2.metric(ui.tr("scoring.stay_metric"), f"{np.abs(after - r.weights[i]).max():.2e}")
fig = charts.grouped_bars(
    {ui.tr("scoring.original"): r.weights[i], ui.tr("scoring.shuffled"): after},
    charts.position_labels(r.tokens, r.perm),
    title=ui.tr(f"names.{score}"),
    y_title="a",
)
fig.update_xaxes(title=ui.tr("scoring.position"))
ui.plot(fig, "shuffle_chart", "shuffle")
