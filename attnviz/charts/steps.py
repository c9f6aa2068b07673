"""One weight followed through its formula, as bar charts (the multi-head and real-model pages
draw them under a picked cell): ``terms_chart`` (the summands of s_ij: which dimensions
carry the score), ``row_chart`` (the row before and after softmax), ``sent_chart`` (what
each key sends per unit of weight, ‖f_h(x_l)‖, and with its weight, ‖a_il f_h(x_l)‖),
``values_chart`` (v_j, a_ij v_j and the head's output row).

Each builder returns the payload of the app's ui/bars.js, which draws it as inline SVG:
a click draws three of them at once, and a plain payload needs no figure validated on the
server nor a chart library laid out in the browser.

A payload is one x axis of ``n`` categories (a dimension d, or a key token) under one or
more panels, each with its y title, its height in CSS px and its series: ``bars`` (one
colour per bar), ``markers`` (open circles) or ``line`` (a line through filled dots); the
values are float32 bytes, base64, as in ``cells.cell_map``. Titles may hold ``<sub>``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..stepthrough import WeightSteps
from ..text import token_labels
from .maps import TICK_LABELS_MAX_N
from .raster import floats

# One meaning per colour across the three charts (and the map's outline): red is key j, the
# one picked (its bar in the row, its share a_ij v_j); a term that takes from the score is
# orange (it was red too, beside key j's red in the next chart)
HIGHLIGHT = "#e02020"  # the picked cell, key and query
POSITIVE, NEGATIVE, MUTED = "#1f77b4", "#e69f00", "#b0b0b0"
MARKER = "#555555"  # the open markers of v_j


def signed(values: np.ndarray) -> list[str]:
    """A bar's colour by its sign: blue adds to the sum, orange takes from it."""
    return np.where(np.asarray(values) >= 0, POSITIVE, NEGATIVE).tolist()


def series(kind: str, values: np.ndarray, *, name: str = "", colours: list[str]) -> dict:
    """One series of a panel: ``kind`` "bars" (``colours`` one per bar), "markers" or "line"
    (``colours`` of one colour)."""
    return {"kind": kind, "name": name, "values": floats(values), "colours": colours}


def chart(
    title: str,
    x_title: str,
    n: int,
    panels: list[dict],
    *,
    names: list[str] | None = None,
    legend: bool = False,
    highlight: int | None = None,
    masked: Sequence[int] = (),
) -> dict:
    """The payload: ``n`` categories, named (``names``: the tooltip's, and under the axis
    while at most ``TICK_LABELS_MAX_N``, else numbered ticks) or numbered from 1;
    ``highlight`` the category picked, ``masked`` those the mask forbids."""
    return {
        "title": title,
        "xTitle": x_title,
        "n": n,
        "names": names,
        "tickNames": names is not None and n <= TICK_LABELS_MAX_N,
        "panels": panels,
        "legend": legend,
        "highlight": highlight,
        "masked": [int(k) for k in masked],
    }


def panel(y_title: str, height: int, *items: dict) -> dict:
    """A plot area ``height`` CSS px tall over the shared x axis, with its series."""
    return {"yTitle": y_title, "height": height, "series": list(items)}


def terms_chart(
    steps: WeightSteps, *, title: str = "", x_title: str = "d", y_title: str = ""
) -> dict:
    """The summands of s_ij (q_i,d k_j,d, or the score's own terms) as bars, by dimension
    counted from 1; blue adds to the score, orange takes from it.

    Shape:
        steps.terms (T,) → one panel of T bars.
    """
    terms = np.asarray(steps.terms, dtype=np.float32)
    bars = series("bars", terms, colours=signed(terms))
    return chart(title, x_title, len(terms), [panel(y_title, 220, bars)])


def key_rows(
    steps: WeightSteps,
    tokens: Sequence[str],
    rows: Sequence[tuple[np.ndarray, str]],
    title: str,
    key_title: str,
) -> dict:
    """One panel of N bars per (values, name) in ``rows``, a bar per key named by its token;
    key j in red, keys the mask forbids in grey."""
    colours = np.where(steps.m_row, POSITIVE, MUTED).astype(object)
    colours[steps.j] = HIGHLIGHT
    colours = colours.tolist()
    panels = [
        panel(name, 140, series("bars", values, name=name, colours=colours))
        for values, name in rows
    ]
    return chart(
        title,
        key_title,
        len(tokens),
        panels,
        names=token_labels(tokens, escape=False),  # drawn as text, never parsed as markup
        highlight=int(steps.j),
        masked=np.flatnonzero(~np.asarray(steps.m_row, dtype=bool)),
    )


def row_chart(
    steps: WeightSteps,
    tokens: Sequence[str],
    *,
    title: str = "",
    score_title: str = "s",
    weight_title: str = "a",
    key_title: str = "",
) -> dict:
    """Query i's row before softmax (s_i·, top panel) and after (a_i·, bottom), one bar per
    key named by its token; key j in red, keys the mask forbids in grey.

    Shape:
        steps.s_row, steps.a_row (N,) → two panels of N bars.
    """
    return key_rows(
        steps, tokens, ((steps.s_row, score_title), (steps.a_row, weight_title)), title, key_title
    )


def sent_chart(
    steps: WeightSteps,
    tokens: Sequence[str],
    *,
    title: str = "",
    f_title: str = "‖f(x)‖",
    sent_title: str = "‖a f(x)‖",
    key_title: str = "",
) -> dict:
    """What each key l sends to query i through head h (Kobayashi et al. 2020): ‖f_h(x_l)‖
    = ‖v_l W_h^O‖ (top panel) and ‖a_il f_h(x_l)‖ = a_il ‖f_h(x_l)‖ (bottom), one bar per
    key named by its token; key j in red, keys the mask forbids in grey.

    Shape:
        steps.f_row, steps.a_row (N,) → two panels of N bars.
    """
    rows = ((steps.f_row, f_title), (steps.a_row * steps.f_row, sent_title))
    return key_rows(steps, tokens, rows, title, key_title)


def values_chart(
    steps: WeightSteps,
    *,
    title: str = "",
    v_name: str = "v_j",
    mixed_name: str = "a_ij v_j",
    head_name: str = "head",
    x_title: str = "d",
) -> dict:
    """The value vectors mixed, by dimension d of D′ counted from 1: its share a_ij v_j
    (bars), v_j (open markers) and the head's output row Σ_l a_il v_l (line), with a legend.

    Shape:
        steps.a_ij_v_j, steps.v_j, steps.head_i (D′,) → one panel of D′ bars and points.
    """
    d = len(steps.v_j)
    shown = panel(
        "",
        220,
        series("bars", steps.a_ij_v_j, name=mixed_name, colours=[HIGHLIGHT] * d),
        series("markers", steps.v_j, name=v_name, colours=[MARKER]),
        series("line", steps.head_i, name=head_name, colours=[POSITIVE]),
    )
    return chart(title, x_title, d, [shown], legend=True)
