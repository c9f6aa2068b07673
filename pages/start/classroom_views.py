"""What the class page (pages/start/classroom.py) and the teacher's panel on the tour
(pages/start/tour_class.py) both draw: a stop's exercise computed as the tour computes it,
the choices with their letters, and the two rounds' distributions."""

from __future__ import annotations

import csv
import io

import streamlit as st

import ui
from attnviz import classroom as cr
from attnviz.charts import classroom as charts
from attnviz.lessons import tour


def exercise(claim: str, seed: int, lang: str | None = None):
    """(ask, cfg, result, exercise or None): the tour's exercise of ``claim`` on example
    ``seed``, computed in ``lang`` (the class's: an example may be a text of that language,
    and every student answers the same one) and asked in the reader's language; None where
    this example asks nothing."""
    ask = tour.ASKS[claim]
    cfg = ui.config(ask.config, lang=lang if lang in ui.LANGS else ui.lang(), seed=seed)
    if ask.slow:
        label = lambda f: ui.tr("depth_gradients.computing", pct=100 * f)  # noqa: E731
        r = ui.compute_with_progress(ask.run, cfg, label)
    else:
        r = ui.compute(ask.run, cfg)
    try:
        ex = ask.ask(cfg, r, ui.lang(), seed)
    except tour.NoQuestion:  # this example asks nothing (the tour says why)
        ex = None
    return ask, cfg, r, ex


def letter(ex: tour.Exercise, key: str) -> str:
    return chr(ord("A") + [c.key for c in ex.choices].index(key))


def lettered(ex: tour.Exercise, key: str) -> str:
    return f"{letter(ex, key)}. {ex.label(key)}"


def share_text(counts: dict[str, int], right: str) -> str:
    n = sum(counts.values())
    if not n:
        return ui.tr("classroom.no_votes")
    return ui.tr("classroom.right_share", pct=100 * counts.get(right, 0) / n, n=n)


def distributions(ex: tour.Exercise, counts: tuple[dict, dict], key: str) -> None:
    """The two rounds side by side: each choice's share, the right one in green; under them
    the share of right answers in each round, and the choices' letters."""
    keys = [c.key for c in ex.choices]
    titles = tuple(ui.tr(f"classroom.round{r}") for r in (1, 2))
    fig = charts.rounds(
        [letter(ex, k) for k in keys], keys, ex.right, counts, titles, ui.tr("classroom.axis")
    )
    ui.plot(fig, key, key)
    shares = [share_text(counts[r - 1], ex.right) for r in (1, 2)]
    st.markdown(ui.tr("classroom.shift", one=shares[0], two=shares[1], right=letter(ex, ex.right)))
    st.markdown(" · ".join(lettered(ex, k) for k in keys))


def summary_rows(rows: list[cr.StopSummary]) -> list[dict]:
    """The teacher's summary, one row per stop asked: each round's voters and right share."""
    out = []
    for s in rows:
        row = {"stop": s.stop, "example": s.example}
        for r in (1, 2):
            share = s.right_share(r)
            row[f"round{r}_voters"] = s.voters(r)
            row[f"round{r}_right_pct"] = None if share is None else round(100 * share, 1)
        out.append(row)
    return out


def summary_csv(rows: list[dict]) -> str:
    fields = ["stop", "example", "round1_voters", "round1_right_pct"]
    fields += ["round2_voters", "round2_right_pct"]
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buf.getvalue()
