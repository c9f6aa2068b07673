"""Tour of the chapter (S1 → S16): one stop at a time, each an exercise answered before its
figure is drawn; the list of stops beside it, and a summary of the answers at the end.

The stop and its example (``?stop=S9&example=2``) are kept in the URL, so a shared link
opens the same question on the same example. Answers are kept in the session only.

The stop comes first: beside it on a wide screen, the list of stops follows it on a phone
(columns stack there), and past the first stop the introduction is folded away. On a
projector the list and the buttons that move through the stops go to the sidebar, the
title is compact and the claim folded, so the question, its choices and, once revealed, the
verdict and the figure's top fit a 720-line screen (ui/tour_presenting.css).
"""

import streamlit as st

import ui
from attnviz.lessons import tour
from attnviz.limits import MAX_SEED
from pages.start import tour_class
from pages.start import tour_stop as views
from ui.keys import TOUR_ANSWERS, TOUR_SEED, TOUR_STOP, own
from ui.layout import css

END = "end"  # the summary, after S16
CLAIMS = [*tour.CLAIMS, END]


def mark(claim: str) -> str:
    """A stop's name in the list, with ✓ or ✗ once answered."""
    if claim == END:
        return ui.tr("tour.summary_nav")
    answer = own().get(TOUR_ANSWERS, {}).get(claim)
    return claim if answer is None else f"{claim} {'✓' if answer['right'] else '✗'}"


def go(step: int) -> None:
    """Move to the stop ``step`` places on (a button's callback: before the list is drawn)."""
    here = CLAIMS.index(st.session_state.get(TOUR_STOP, CLAIMS[0]))
    st.session_state[TOUR_STOP] = CLAIMS[min(max(here + step, 0), len(CLAIMS) - 1)]


def another() -> None:
    """A new example: the next seed (wrapping at the cap)."""
    st.session_state[TOUR_SEED] = (st.session_state.get(TOUR_SEED, 0) + 1) % (MAX_SEED + 1)


presenting = ui.presenting()
st.html(css("tour_presenting" if presenting else "tour"))
st.title(ui.tr("tour.title"))
intro = st.container()  # drawn once the stop is known
# the stop first (on a phone the list, stacked, comes after it); presenting, the list goes
# to the sidebar and the stop gets the whole width, its formulas their projector size
main, side = (st.container(), st.sidebar) if presenting else st.columns([4, 1], gap="medium")
moves = (side if presenting else main).container()  # above the list, or above the stop
with side:
    claim = ui.select(
        TOUR_STOP, ui.tr("tour.stops"), CLAIMS, CLAIMS[0], labels=mark, radio=True, horizontal=False
    )
    seed = ui.number(TOUR_SEED, ui.tr("tour.seed"), 0, MAX_SEED, 0)
    tour_class.control()  # presenting: start a class that votes (pages/start/tour_class.py)
with moves:
    back, ahead, other = st.columns(3)
    back.button(ui.tr("tour.prev"), on_click=go, args=(-1,), disabled=claim == CLAIMS[0])
    ahead.button(ui.tr("tour.next"), on_click=go, args=(1,), disabled=claim == END)
    if claim != END:
        other.button(ui.tr("tour.another"), on_click=another, key="another")
# past the first stop the introduction is folded, so a stop's link (on a phone) lands near its
# question; it depends on the stop alone, so the same URL opens the same view in any session
folded = claim != CLAIMS[0]
if not presenting:  # on a projector the stop's question would start below the fold
    with intro:
        if folded:
            with st.expander(ui.tr("tour.about")):
                st.markdown(ui.tr("tour.intro"))
        else:
            st.markdown(ui.tr("tour.intro"))
with main:
    if claim != END:
        views.show(claim, seed, land=folded)
    else:
        views.summary(CLAIMS[:-1])
