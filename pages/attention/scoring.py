"""Scoring functions (S1–S6, S8, S9, S11): queries against N sources, every score side by side."""

import html

import pandas as pd
import streamlit as st

import ui
from attnviz.charts import scoring as charts
from attnviz.lessons import scoring
from attnviz.limits import MAX_MLP_HIDDEN, MAX_N, MAX_SEED, MAX_TEXT_CHARS
from attnviz.scores import SCORES
from attnviz.text import token_labels

st.title(ui.tr("scoring.title"))
st.markdown(ui.tr("scoring.intro"))
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
    for formula in r.formulas:
        st.latex(formula)

labels = token_labels(r.tokens, escape=False)  # CSV headers: the tokens as typed
k = min(D, 32)  # the first components: enough to see q̃ change
components = pd.RangeIndex(1, D + 1, name=ui.tr("scoring.component"))
with right:
    scores = charts.weights_bar(r.scores, r.tokens, title=ui.tr("scoring.scores_title"))
    ui.plot(scores, "scores", "scores")
    weights = charts.weights_bar(r.weights, r.tokens, title=ui.tr("scoring.weights_title"))
    ui.plot(weights, "weights", "weights")
    fig = charts.weights_bar(
        r.attended[:k],
        [str(j) for j in range(1, k + 1)],
        title=ui.tr("scoring.attended_title", k=k, D=D),
        height=260,
        numbered=False,
    )
    fig.update_xaxes(title=ui.tr("scoring.component"))
    ui.plot(fig, "attended", "attended")
    cols = [ui.tr("scoring.col_score"), ui.tr("scoring.col_weight")]
    table = pd.DataFrame(dict(zip(cols, (r.scores, r.weights), strict=True)), index=labels)
    ui.csv_button(
        table.rename_axis(ui.tr("scoring.col_source")), ui.tr("scoring.csv_one"), "csv_one"
    )
    attended = pd.DataFrame({"q̃": r.attended}, index=components)
    ui.csv_button(attended, ui.tr("scoring.csv_attended"), "csv_attended")

st.subheader(ui.tr("scoring.all_title", n=len(r.names)))
q, sqrt_D = r.queries[0], D**0.5
shares = dict(q=q, dot=r.top_share["dot"], scaled=r.top_share["scaled_dot"], root=sqrt_D)
if cfg.source == "random":
    st.caption(ui.tr("scoring.sqrt_caption_random", N=len(r.tokens), **shares))
elif r.self_index is None:
    st.caption(ui.tr("scoring.sqrt_caption", **shares))
else:
    st.caption(ui.tr("scoring.self_caption", i=r.self_index + 1, self=r.self_score, **shares))
st.caption(ui.tr("scoring.all_caption"))
names = [ui.tr(SCORES[name].label) for name in r.names]
full = [html.escape(n) for n in names]
if ui.presenting():  # full names took a projector's whole width: formulas, names in the key
    st.caption(ui.tr("scoring.all_rows", rows=ui.tr("scoring.list_sep").join(names)))
    short = [html.escape(ui.tr(SCORES[name].short_label)) for name in r.names]
    fig = charts.matrix(r.by_score, token_labels(r.tokens), short, y_hover=full)
else:
    fig = charts.matrix(r.by_score, token_labels(r.tokens), full)
ui.plot(fig, "all", "all")
ui.csv_button(
    pd.DataFrame(r.by_score, index=names, columns=labels),
    ui.tr("scoring.csv_all", n=len(r.names)),
    "csv_all",
)

st.subheader(ui.tr("scoring.many_title"))
for formula in r.many_formulas:
    st.latex(formula)
st.caption(ui.tr("scoring.many_caption"))
if r.many_self:
    own = [ui.tr("scoring.self_item", m=m + 1, word=r.queries[m], a=a) for m, a in r.many_self]
    st.caption(ui.tr("scoring.many_self", rows=ui.tr("scoring.list_sep").join(own)))
rows = token_labels(r.queries)
# side by side on a desk; presenting, each half would be a map a few dozen pixels wide
a, b = (st.container(), st.container()) if ui.presenting() else st.columns(2)
with a:
    fig = charts.matrix(
        r.many,
        token_labels(r.tokens),
        rows,
        title=ui.tr("scoring.many_weights"),
        x_title=ui.tr("scoring.source_axis"),
        y_title=ui.tr("scoring.query_axis"),
    )
    ui.plot(fig, "many", "A")
with b:
    fig = charts.matrix(
        r.many_attended[:, :k],
        [str(j) for j in range(1, k + 1)],
        rows,
        title=ui.tr("scoring.many_attended", k=k, D=D),
        x_title=ui.tr("scoring.component"),
        zmin=None,
        zmax=None,
        colorscale="RdBu_r",
    )
    ui.plot(fig, "many_attended", "Q_tilde")
query_labels = token_labels(r.queries, escape=False)
many = pd.DataFrame(r.many, index=query_labels, columns=labels)
ui.csv_button(many.rename_axis(ui.tr("scoring.col_query")), ui.tr("scoring.csv_many"), "csv_many")

st.subheader(ui.tr("scoring.shuffle_title"))
st.caption(ui.tr("scoring.shuffle_caption"))
c1, c2 = st.columns(2, vertical_alignment="bottom")  # the values level, labels of any length
c1.metric(ui.tr("scoring.follow_metric"), scoring.change(r.follows))
c2.metric(ui.tr("scoring.stay_metric"), scoring.change(r.stays))
if min(r.follows, r.stays) < scoring.ZERO_TOL:
    st.caption(ui.tr("scoring.zero_note", exp=scoring.ZERO_TOL_EXP))
fig = charts.grouped_bars(
    {ui.tr("scoring.original"): r.weights, ui.tr("scoring.shuffled"): r.shuffled},
    charts.position_labels(r.tokens, r.perm),
    title=ui.tr(SCORES[score].label),
    y_title=ui.tr("scoring.weight_axis"),
)
fig.update_xaxes(title=ui.tr("scoring.position"))
ui.plot(fig, "shuffle_chart", "shuffle")
