"""The scoring page's sections under its one query, drawn by pages/attention/scoring.py in
this order: every score side by side, many queries at once (A and Q̃), and the shuffle of
the sources. Strings are ``scoring.*``; positions and components are shown counting from 1.
"""

from __future__ import annotations

import html

import pandas as pd
import streamlit as st

from attnviz.charts import scoring as charts
from attnviz.lessons import scoring
from attnviz.scores import SCORES
from attnviz.text import token_labels
from ui.export import csv_button
from ui.language import tr
from ui.layout import display, metrics, presenting, prose
from ui.plots import plot


def all_scores(cfg: scoring.Config, r: scoring.Result) -> None:
    """Every registered score's weights on the same sources, one row each, with its CSV."""
    st.subheader(tr("scoring.all_title", n=len(r.names)))
    q, sqrt_D = r.queries[0], cfg.D**0.5
    shares = dict(q=q, dot=r.top_share["dot"], scaled=r.top_share["scaled_dot"], root=sqrt_D)
    if cfg.source == "random":
        reading = tr("scoring.sqrt_caption_random", N=len(r.tokens), **shares)
    elif r.self_index is None:
        reading = tr("scoring.sqrt_caption", **shares)
    else:
        reading = tr("scoring.self_caption", i=r.self_index + 1, self=r.self_score, **shares)
    names = [tr(SCORES[name].label) for name in r.names]
    full = [html.escape(n) for n in names]
    # presenting, full names took a projector's whole width: formulas, names in the key
    rows = tr("scoring.all_rows", rows=tr("scoring.list_sep").join(names)) if presenting() else ""
    prose(reading, tr("scoring.all_caption"), rows, small=True)
    if presenting():
        short = [html.escape(tr(SCORES[name].short_label)) for name in r.names]
        plot(
            lambda: charts.matrix(r.by_score, token_labels(r.tokens), short, y_hover=full),
            "all",
            "all",
        )
    else:
        plot(lambda: charts.matrix(r.by_score, token_labels(r.tokens), full), "all", "all")
    corner = tr("scoring.col_function")  # translated now: the click runs outside the page
    csv_button(
        lambda: pd.DataFrame(
            r.by_score,
            index=pd.Index(names, name=corner),
            columns=token_labels(r.tokens, escape=False),
        ),
        tr("scoring.csv_all", n=len(r.names)),
        "csv_all",
    )


def many_queries(cfg: scoring.Config, r: scoring.Result, k: int) -> None:
    """Every query's weights, A, beside the first k components of their outputs, Q̃."""
    prose(*map(display, r.many_formulas), heading=tr("scoring.many_title"))
    own = [tr("scoring.self_item", m=m + 1, word=r.queries[m], a=a) for m, a in r.many_self]
    mine = tr("scoring.many_self", rows=tr("scoring.list_sep").join(own)) if own else ""
    prose(tr("scoring.many_caption"), mine, small=True)
    rows = token_labels(r.queries)
    # side by side on a desk; presenting, each half would be a map a few dozen pixels wide
    a, b = (st.container(), st.container()) if presenting() else st.columns(2)
    with a:
        plot(
            lambda: charts.matrix(
                r.many,
                token_labels(r.tokens),
                rows,
                title=tr("scoring.many_weights"),
                x_title=tr("scoring.source_axis"),
                y_title=tr("scoring.query_axis"),
            ),
            "many",
            "A",
        )
    with b:
        plot(
            lambda: charts.matrix(
                r.many_attended[:, :k],
                [str(j) for j in range(1, k + 1)],
                rows,
                title=tr("scoring.many_attended", k=k, D=cfg.D),
                x_title=tr("scoring.component"),
                zmin=None,
                zmax=None,
                colorscale="RdBu_r",
            ),
            "many_attended",
            "Q_tilde",
        )
    queries = pd.Index(token_labels(r.queries, escape=False), name=tr("scoring.col_query"))
    csv_button(
        lambda: pd.DataFrame(r.many, index=queries, columns=token_labels(r.tokens, escape=False)),
        tr("scoring.csv_many"),
        "csv_many",
    )


def shuffle(cfg: scoring.Config, r: scoring.Result) -> None:
    """The query's weights before and after the sources are shuffled: how far they moved
    from their sources and from their positions, then both as bars by position."""
    st.subheader(tr("scoring.shuffle_title"))
    st.caption(tr("scoring.shuffle_caption"))
    metrics(
        [tr("scoring.follow_metric"), tr("scoring.stay_metric")],
        [scoring.change(r.follows), scoring.change(r.stays)],
    )
    if min(r.follows, r.stays) < scoring.ZERO_TOL:
        st.caption(tr("scoring.zero_note", exp=scoring.ZERO_TOL_EXP))

    def bars():
        fig = charts.grouped_bars(
            {tr("scoring.original"): r.weights, tr("scoring.shuffled"): r.shuffled},
            charts.position_labels(r.tokens, r.perm),
            title=tr(SCORES[cfg.score].label),
            y_title=tr("scoring.weight_axis"),
        )
        return fig.update_xaxes(title=tr("scoring.position"))

    plot(bars, "shuffle_chart", "shuffle")
