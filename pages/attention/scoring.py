"""Scoring functions (S1–S6, S8): one query against N sources, every score side by side."""

import pandas as pd
import streamlit as st

import ui
from attnviz.charts import maps
from attnviz.charts import scoring as charts
from attnviz.lessons import scoring
from attnviz.limits import MAX_MLP_HIDDEN, MAX_N, MAX_SEED, MAX_TEXT_CHARS
from attnviz.scoring import SCORES
from attnviz.text import token_labels

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
        fields = dict(text=text, query=query)
    else:
        fields = dict(N=ui.slider("N", ui.tr("scoring.N"), 1, MAX_N, 8))
    widths = [str(d) for d in scoring.WIDTHS]
    D = int(ui.choice_slider("D", ui.tr("scoring.D"), widths, "64"))
    score = ui.select("score", ui.tr("scoring.score"), SCORES, "scaled_dot", labels="names.")
    if score == "mlp":
        fields["mlp_hidden"] = ui.slider(
            "hidden", ui.tr("scoring.mlp_hidden"), 1, MAX_MLP_HIDDEN, 16
        )
    seed = ui.number("seed", ui.tr("scoring.seed"), 0, MAX_SEED, 0)
    shuffle_seed = ui.number("shuffle", ui.tr("scoring.shuffle_seed"), 0, MAX_SEED, 1)
    fields |= dict(source=source, D=D, score=score, seed=seed, shuffle_seed=shuffle_seed)
    cfg = ui.config(scoring.Config, **fields)
    r = ui.compute(scoring.run, cfg)
    for formula in r.formulas:
        st.latex(formula)

labels = token_labels(r.tokens, escape=False)  # CSV headers: the tokens as typed
with right:
    ui.plot(
        charts.weights_bar(r.scores, r.tokens, title=ui.tr("scoring.scores_title")),
        "scores",
        "scores",
    )
    ui.plot(
        charts.weights_bar(r.weights, r.tokens, title=ui.tr("scoring.weights_title")),
        "weights",
        "weights",
    )
    k = min(D, 32)  # the first components: enough to see q̃ change
    fig = charts.weights_bar(
        r.attended[:k],
        [str(j) for j in range(k)],
        title=ui.tr("scoring.attended_title", k=k, D=D),
        height=260,
    )
    fig.update_xaxes(title=ui.tr("scoring.component"))
    ui.plot(fig, "attended", "attended")
    table = pd.DataFrame({"r": r.scores, "a": r.weights}, index=labels)
    ui.csv_button(table, f"{score}_scores_weights", "csv_one")
    attended = pd.DataFrame({"q_tilde": r.attended}, index=pd.RangeIndex(D, name="component"))
    ui.csv_button(attended, f"{score}_attended_vector", "csv_attended")

st.subheader(ui.tr("scoring.all_title"))
st.caption(ui.tr("scoring.all_caption"))
ui.plot(maps.heatmap(r.by_score, r.tokens, r.names, height=300), "all", "all_scores")
ui.csv_button(pd.DataFrame(r.by_score, index=r.names, columns=labels), "all_weights", "csv_all")

st.subheader(ui.tr("scoring.shuffle_title"))
st.caption(ui.tr("scoring.shuffle_caption"))
c1, c2 = st.columns(2)
c1.metric(ui.tr("scoring.follow_metric"), f"{r.follows:.2e}")
c2.metric(ui.tr("scoring.stay_metric"), f"{r.stays:.2e}")
fig = charts.grouped_bars(
    {ui.tr("scoring.original"): r.weights, ui.tr("scoring.shuffled"): r.shuffled},
    charts.position_labels(r.tokens, r.perm),
    title=ui.tr(f"names.{score}"),
    y_title="a",
)
fig.update_xaxes(title=ui.tr("scoring.position"))
ui.plot(fig, "shuffle_chart", "shuffle")
