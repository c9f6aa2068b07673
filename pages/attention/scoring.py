"""Scoring functions (S1–S6, S8, S9, S11): queries against N sources, every score side by side.

The controls and one query's scores, weights and q̃ are drawn here; the sections below them
(every score, many queries, the shuffle) by ``scoring_views`` beside it.
"""

import pandas as pd
import streamlit as st

import ui
from attnviz.charts import scoring as charts
from attnviz.lessons import scoring
from attnviz.limits import MAX_MLP_HIDDEN, MAX_N, MAX_SEED, MAX_TEXT_CHARS
from attnviz.scores import SCORES
from attnviz.text import token_labels
from pages.attention import scoring_views as views

ui.prose(ui.tr("scoring.intro"), heading=ui.tr("scoring.title"), level=1)
st.caption(ui.tr("scoring.symbols"))
left, right = ui.split([1, 2])
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
        query = ui.text("query", ui.tr("scoring.query"), ui.tr("scoring.default_query"), 200)
        fields = dict(text=text, query=query)
    else:
        fields = dict(N=ui.slider("N", ui.tr("scoring.N"), 1, MAX_N, 8))
        fields["M"] = ui.slider("M", ui.tr("scoring.M"), 1, scoring.MAX_QUERIES, 3)
    widths = [str(d) for d in scoring.WIDTHS]
    D = int(ui.choice_slider("D", ui.tr("scoring.D"), widths, "64"))
    score_names = ui.spec_labels(SCORES)
    score = ui.select("score", ui.tr("scoring.score"), SCORES, "scaled_dot", labels=score_names)
    if "hidden" in SCORES[score].options:  # the MLP's hidden width
        fields["mlp_hidden"] = ui.slider(
            "hidden", ui.tr("scoring.mlp_hidden"), 1, MAX_MLP_HIDDEN, 16
        )
    seed = ui.number("seed", ui.tr("scoring.seed"), 0, MAX_SEED, 0)
    shuffle_seed = ui.number("shuffle", ui.tr("scoring.shuffle_seed"), 0, MAX_SEED, 1)
    fields |= dict(source=source, D=D, score=score, seed=seed, shuffle_seed=shuffle_seed)
    cfg = ui.config(scoring.Config, **fields)
    r = ui.compute(scoring.run, cfg)
    ui.prose(*map(ui.display, r.formulas))
    if SCORES[score].same_as_note:  # the published score it is, symbol for symbol
        st.caption(ui.tr(SCORES[score].same_as_note))

labels = token_labels(r.tokens, escape=False)  # CSV headers: the tokens as typed
k = min(D, 32)  # the first components: enough to see q̃ change
components = pd.RangeIndex(1, D + 1, name=ui.tr("scoring.component"))
with right:
    scores_title, weights_title = ui.tr("scoring.scores_title"), ui.tr("scoring.weights_title")
    ui.plot(lambda: charts.weights_bar(r.scores, r.tokens, title=scores_title), "scores", "scores")
    ui.plot(
        lambda: charts.weights_bar(r.weights, r.tokens, title=weights_title), "weights", "weights"
    )

    def attended_bars():
        fig = charts.weights_bar(
            r.attended[:k],
            [str(j) for j in range(1, k + 1)],
            title=ui.tr("scoring.attended_title", k=k, D=D),
            height=260,
            numbered=False,
        )
        return fig.update_xaxes(title=ui.tr("scoring.component"))

    ui.plot(attended_bars, "attended", "attended")
    cols = [ui.tr("scoring.col_score"), ui.tr("scoring.col_weight")]  # translated now,
    sources = pd.Index(labels, name=ui.tr("scoring.col_source"))  # the tables when clicked
    ui.csv_button(
        lambda: pd.DataFrame(dict(zip(cols, (r.scores, r.weights), strict=True)), index=sources),
        ui.tr("scoring.csv_one"),
        "csv_one",
    )
    ui.csv_button(
        lambda: pd.DataFrame({"q̃": r.attended}, index=components),
        ui.tr("scoring.csv_attended"),
        "csv_attended",
    )

views.all_scores(cfg, r)
views.many_queries(cfg, r, k)
views.shuffle(cfg, r)
