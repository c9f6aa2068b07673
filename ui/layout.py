"""How a page looks: the app's CSS, presentation mode (projector) and a page's two columns."""

from __future__ import annotations

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


def prose(*parts: str | None, where=None, small: bool = False) -> None:
    """Paragraphs and display formulas (:func:`display`) in one markdown element, in order,
    empty parts left out; ``small``: one caption. Every element a page draws is a message
    to every student on every rerun: a run of text is one element, not one per paragraph."""
    text = "\n\n".join(p for p in parts if p)
    if text:
        (where or st).caption(text) if small else (where or st).markdown(text)
