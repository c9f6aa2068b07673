"""How a page looks: the app's CSS, presentation mode (projector) and a page's two columns."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

import streamlit as st

from .keys import FIGURES, PRESENT, own
from .this_run import once

HERE = Path(__file__).parent


def css(stem: str) -> str:
    """``ui/<stem>.css`` as a ``<style>`` element, for ``st.html``."""
    return f"<style>{(HERE / f'{stem}.css').read_text(encoding='utf-8')}</style>"


APP_CSS, PRESENTING_CSS = css("app"), css("presenting")


def presenting() -> bool:
    """True in presentation mode (projector): larger type and figures; read once a run
    after its switch is drawn (ui.this_run)."""
    return once(PRESENT, lambda: bool(st.session_state.get(PRESENT, False)))


FIT = st.components.v2.component("attnviz.fit", js=(HERE / "fit.js").read_text(encoding="utf-8"))


def style() -> None:
    """The app's CSS, drawn by app.py each run: ui/app.css, and ui/presenting.css in
    presentation mode, with ui/fit.js: each display formula as large as the prose, less
    only where its column is too narrow for it."""
    st.html(APP_CSS)
    if presenting():
        st.html(PRESENTING_CSS)
        FIT(key="fit")


def split(spec: list[int]):
    """A page's two columns, controls and formulas beside the figures; ui/app.css stacks
    them when they would be too narrow side by side, whatever the window or the sidebar.
    A message of bad input goes to the figures' column (ui.messages.error_box): where the
    figure would be, not under the controls, below the fold."""
    with st.container(key="split"):
        columns = st.columns(spec)
    own()[FIGURES] = columns[-1]
    return columns


def display(formula: str) -> str:
    """``formula`` (LaTeX) as a display formula inside markdown: what ``st.latex`` draws."""
    return f"$$\n{formula}\n$$"


def prose(
    *parts: str | None,
    heading: str | None = None,
    level: int = 3,
    where=None,
    small: bool = False,
) -> None:
    """Paragraphs and display formulas (:func:`display`) in one markdown element, in order,
    empty parts left out; ``small``: one caption. Every element a page draws is a message
    to every student on every rerun: a run of text is one element, not one per paragraph.
    ``heading``: a heading above them in the same element, ``level`` 3 as ``st.subheader``
    draws it (an h3 with its anchor), 1 for the page's title (``st.title``)."""
    text = "\n\n".join(p for p in (_heading(heading, level), *parts) if p)
    if text:
        (where or st).caption(text) if small else (where or st).markdown(text)


def _heading(text: str | None, level: int) -> str:
    """``text`` as a markdown heading of ``level`` (1: ``# text``), or "" for none."""
    return f"{'#' * level} {text}" if text else ""


METRICS = "attnviz-metrics"  # the class of metrics' tables (ui/app.css styles them)
MATH = re.compile(r"(\$[^$]+\$)")  # inline math in a label, left for KaTeX as it is


def _text(markdown: str) -> str:
    """A label's markdown with ``<``, ``>`` and ``&`` escaped outside its math: HTML
    around it reads them as text, and KaTeX reads its math."""
    return "".join(
        part if MATH.fullmatch(part) else html.escape(part, quote=False)
        for part in MATH.split(markdown)
    )


def _header(markdown: str, scope: str, span: int = 1) -> str:
    """A header cell whose text is markdown (math typeset): the blank lines around it end
    the HTML before it and start the HTML after it, so markdown reads what lies between."""
    spans = f' colspan="{span}"' if span > 1 else ""
    return f'<th scope="{scope}"{spans}>\n\n{_text(markdown)}\n\n</th>'


def metrics(
    labels: Sequence[str],
    values: Sequence[str] | Mapping[str, Sequence[str]],
    *,
    heading: str | None = None,
    where=None,
) -> None:
    """Labelled values, each label (markdown, math typeset) small and faded over its value
    set large, as ``st.metric`` draws them, in ONE markdown element: a table, a column a
    label. ``values``: one row of strings under ``labels``, or rows by name to compare
    column by column (saturation's unscaled and scaled logits), each row under its name
    (a header of its row group, across the columns, as a caption over a row of metrics).
    ``heading``: an h3 above it, in the same element (:func:`prose`).

    A row of ``st.metric`` in ``st.columns`` was a block, a column and a metric a value,
    each a message to every student on every rerun; the values stay the strings given,
    which tests read back (tests/app/helpers.py: ``metrics``). ui/app.css styles the table
    (in a box of class ``METRICS``), ui/presenting.css sets it at a projector's size."""
    rows = dict(values) if isinstance(values, Mapping) else {"": values}
    head = "".join(_header(label, "col") for label in labels)
    body = "".join(
        "<tbody>"
        + (f"<tr>{_header(name, 'rowgroup', len(labels))}</tr>" if name else "")
        + "<tr>"
        + "".join(f"<td>{html.escape(v, quote=False)}</td>" for v in row)
        + "</tr></tbody>"
        for name, row in rows.items()
    )
    table = (
        f'<div class="{METRICS}" style="--columns: {len(labels)}"><table>\n'
        f"<thead><tr>{head}</tr></thead>\n{body}\n</table></div>"
    )
    (where or st).markdown(
        "\n\n".join(p for p in (_heading(heading, 3), table) if p), unsafe_allow_html=True
    )
