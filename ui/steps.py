"""One weight followed through its formula, and a head's query–key picture, drawn alike on
the multi-head page and the real-model page (each page computes them with its lesson).

The weight's steps are one component (ui/steps.js): each chart (ui/bars.js) under the formula
lines that hold its numbers, with a PNG and a CSV button. The query–key picture is Plotly,
with its toolbar's PNG and a CSV button. Strings are ``steps.*``; indices shown count from 1.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import pandas as pd
import streamlit as st

from attnviz.charts import steps as charts
from attnviz.charts.qkspace import qk_chart
from attnviz.qkspace import CENTRES
from attnviz.scores import SCORES
from attnviz.stepthrough import WeightSteps
from attnviz.tables import qk_table, sent_table, step_tables

from .components import component, ordered
from .drawn import drawn
from .export import csv_button, csv_text, download_label, file_stem
from .language import tr
from .layout import presenting
from .plots import plot
from .widgets import choice_slider, select

TOP_K = [str(k) for k in (1, 2, 3, 5, 8, 12, 16)]
STEPS = component("attnviz.steps", "steps", isolated=False)
# the KaTeX module Streamlit ships (its file name has a hash; Streamlit is pinned): ui/steps.js
# typesets with it, styled by ui/vendor's CSS of the same version ("" if none: LaTeX as text)
STREAMLIT_JS = Path(st.__file__).parent / "static" / "static" / "js"
KATEX = next((p.name for p in sorted(STREAMLIT_JS.glob("katex.*.js"))), "")


def follow(
    steps: WeightSteps,
    lines: list[str],
    tokens: Sequence[str],
    *,
    where: str,
    extra: str | None = None,
    notes: Sequence[str] = (),
    key: str = "steps",
) -> None:
    """The six lines of ``worked.weight_steps`` (``lines``), each over the chart of its
    numbers, under a title naming the head (``where``): the
    projections, the score over its terms, the softmax over the row, what each key sends
    (‖f_h(x_l)‖ and ‖a_il f_h(x_l)‖, Kobayashi et al. 2020) beside its weight, the head and
    output rows over the values mixed;
    ``extra`` (the map's own cell, when it differs from a_ij) under the softmax; ``notes``
    (text with $inline math$) under it all. One component, ``key``: its charts' PNG and CSV
    files are named ``key``_terms, _row, _sent and _values. The payload is built once per
    process for what it reads (ui.drawn): its charts, tables and CSV texts cost more than
    the rest of the page's rerun."""
    q_token, k_token = (_markdown_text(tokens[k]) for k in (steps.i, steps.j))  # not x_i only
    named = dict(i=steps.i + 1, j=steps.j + 1, q_token=q_token, k_token=k_token, where=where)
    st.subheader(tr("steps.title", **named))
    data = drawn(lambda: _payload(steps, lines, tokens, extra, tuple(notes)))
    STEPS(key=key, data=ordered(key, data))


def _payload(
    steps: WeightSteps,
    lines: Sequence[str],
    tokens: Sequence[str],
    extra: str | None,
    notes: tuple[str, ...],
) -> dict:
    """What ui/steps.js draws for ``follow``, in this run's language and mode."""
    tables = csv_tables(steps, tokens)
    spec = SCORES[steps.score]
    charts_of = {
        "terms": charts.terms_chart(
            steps,
            title=tr(spec.terms_title),
            x_title=tr(spec.terms_axis),
            y_title=tr("steps.terms_y"),
        ),
        "row": charts.row_chart(
            steps,
            tokens,
            title=tr("steps.row_title"),
            score_title=tr("steps.row_score"),
            weight_title=tr("steps.row_weight"),
            key_title=tr("steps.row_key"),
        ),
        "sent": charts.sent_chart(
            steps,
            tokens,
            title=tr("steps.sent_title"),
            f_title=tr("steps.sent_f"),
            sent_title=tr("steps.sent_product"),
            key_title=tr("steps.row_key"),
        ),
        "values": charts.values_chart(
            steps,
            title=tr("steps.values_title"),
            v_name=tr("steps.values_v"),
            mixed_name=tr("steps.values_mixed"),
            head_name=tr("steps.values_head"),
            x_title=tr("steps.terms_x"),
        ),
    }
    formulas = {  # the score and softmax lines, one step a line
        "terms": [_one_step_a_line(lines[1])],
        "row": [_one_step_a_line(lines[2])] + ([extra] if extra else []),
        "sent": lines[3:4],
        "values": lines[4:6],
    }
    masked = not steps.m_row.all()
    panels = [
        {
            "name": name,
            "formulas": formulas[name],
            "note": tr("steps.row_masked") if name == "row" and masked else None,
            "chart": chart | {"name": file_stem(what), "saveLabel": tr("app.save_map_png")},
            "csv": {
                "label": download_label("csv", what),
                "file": f"{file_stem(what)}.csv",
                "text": csv_text(tables[name]),
            },
        }
        for name, chart in charts_of.items()
        for what in [tr(f"steps.dl_{name}", i=steps.i + 1, j=steps.j + 1)]
    ]
    data = {
        "intro": tr("steps.intro"),
        "projections": tr("steps.projections"),
        "lead": lines[0],
        "panels": panels,
        "notes": list(notes),
        "large": presenting(),
        "katex": KATEX,
    }
    return data


def csv_tables(steps: WeightSteps, tokens: Sequence[str]) -> dict[str, pd.DataFrame]:
    """``step_tables`` with their words in the reader's language: the symbols (s_i,l, a_ij v_j)
    stay, the term's column and the indices d, u and l are named as the charts name them,
    and the mask's column, where there is one, says what its 1 and 0 mean."""
    i = steps.i + 1
    words = {
        "term": tr("steps.terms_y"),
        f"m_{i},l": tr("steps.csv_mask", i=i),
        SCORES[steps.score].term_index: tr(SCORES[steps.score].terms_axis),
        "d": tr("steps.terms_x"),
        "l": tr("steps.csv_key"),
    }
    return {
        name: table.rename(columns=words).rename_axis(words.get(table.index.name))
        for name, table in (
            step_tables(steps, list(tokens)) | {"sent": sent_table(steps, list(tokens))}
        ).items()
    }


TERMS_A_LINE = 3  # products written out a line: four ran past the column at 1400 px


MARKDOWN_SIGNS = re.compile(r"([\\`*_{}\[\]()#+\-.!|$<>~])")


def _markdown_text(token: str) -> str:
    """A token as plain text inside Markdown: its signs escaped (a token "$" or "*" is one
    sign of the text)."""
    return MARKDOWN_SIGNS.sub(r"\\\1", token)


def _one_step_a_line(chain: str) -> str:
    """``a = b = c = d`` as aligned lines, ``a &= b``, ``&= c``, …: the score and softmax
    lines with their numbers are wider than the map's column, and a display formula that
    overflows hides its result behind a scroll bar. A step that sums more than
    ``TERMS_A_LINE`` terms goes on over lines of that many, each starting with its +."""
    first, *rest = chain.split(" = ")
    if not rest:
        return chain
    rest = [_terms_a_line(step) for step in rest]
    return rf"\begin{{aligned}}{first} &= " + r" \\ &= ".join(rest) + r"\end{aligned}"


def _terms_a_line(step: str) -> str:
    r"""``t_1 + t_2 + … + t_8`` as lines of ``TERMS_A_LINE`` terms (``\ &\quad + t_5 …``)."""
    terms = step.split(" + ")
    lines = [" + ".join(terms[k : k + TERMS_A_LINE]) for k in range(0, len(terms), TERMS_A_LINE)]
    return r" \\ &\quad + ".join(lines)


def qk_controls(key: str) -> tuple[int, str]:
    """The top-k and centring controls of a query–key picture, kept in the URL."""
    left, right = st.columns(2)
    k = int(choice_slider(f"{key}_k", tr("steps.qk_top_k"), TOP_K, "5", where=left))
    centre = select(
        f"{key}_centre",
        tr("steps.qk_centre"),
        CENTRES,
        "each",
        labels="steps.qk_centre_",
        where=right,
    )
    return k, centre


def qk_view(
    qk, *, key: str, sentence_names: Sequence[str] | None = None, csv_label: str | None = None
) -> None:
    """A lesson's ``QK`` result (space, tokens, formulas, score): the picture under its
    formulas, the share of variance kept, the centring caption, its points as CSV (the
    button named ``csv_label``, by default the points of the query–key picture)."""
    space, tokens, formulas = qk.space, qk.tokens, qk.formulas
    a, b = space.explained
    fig = qk_chart(
        space,
        tokens,
        query_name=tr("steps.qk_query"),
        key_name=tr("steps.qk_key"),
        x_title=tr("steps.qk_axis", a=1, share=a),
        y_title=tr("steps.qk_axis", a=2, share=b),
        colour_title=tr("steps.qk_colour"),
        sentence_names=sentence_names,
    )
    for formula in formulas:
        st.latex(formula)
    label = csv_label or tr("steps.dl_qk")
    plot(fig, key, file_stem(label))  # its PNG named as its CSV, in the reader's language
    d = space.axes.shape[0]
    kept = dict(share=a + b, a=a, b=b, kept=space.inner_products_kept, d=d)
    st.caption(tr("steps.qk_kept", **kept))
    st.caption(tr(f"steps.qk_centring_{space.centre}"))
    note = SCORES[qk.score].qk_note  # what the points are, when not q_i and k_j
    if note:
        st.caption(tr(note))
    st.caption(tr("steps.qk_explain"))
    words = {c: tr(f"steps.csv_{c}") for c in ("kind", "sentence", "position", "token")}
    csv_button(lambda: qk_table(space, list(tokens)).rename(columns=words), label, f"{key}_csv")
