"""The teacher's class on the tour, in presentation mode (hooks of pages/start/tour.py and
tour_stop.py): start a class from the sidebar; on each stop, the class follows the teacher's
stop and example, and the teacher runs its rounds: round 1, "discuss with your neighbour",
round 2, reveal (the tour's own reveal button). How many have voted shows live, and the count
per choice behind a toggle; revealed, both rounds side by side."""

from __future__ import annotations

import streamlit as st

import ui
from attnviz import classroom as cr
from attnviz.lessons import tour
from pages.start import classroom_views as views
from ui import classroom
from ui.keys import CLASS_CODE, CLASS_COUNTS, CLASS_ERROR, CLASS_TEACHER, PRESENT, own


def _start() -> None:
    try:
        ticket = classroom.store().create()
    except cr.ClassError as err:
        own()[CLASS_ERROR] = classroom.say(err)
        return
    own()[CLASS_TEACHER] = {"code": ticket.code, "key": ticket.key}


def control() -> None:
    """The sidebar's class control: start one, or its code and the way to its QR code."""
    if not ui.presenting():
        return
    said = own().pop(CLASS_ERROR, None)
    if said:
        st.error(said)
    teacher = classroom.teaching()
    if teacher is None:
        st.button(ui.tr("classroom.start"), on_click=_start, key="class_start")
        return
    classroom.keep_teacher(teacher["code"], teacher["key"])
    st.markdown(ui.tr("classroom.code_is", code=teacher["code"]))
    query = {CLASS_CODE: teacher["code"], PRESENT: "true"}
    st.page_link("pages/start/classroom.py", label=ui.tr("classroom.show_qr"), query_params=query)


def _phase(phase: str) -> None:
    teacher = classroom.teaching()
    try:
        classroom.store().set_phase(teacher["code"], teacher["key"], phase)
    except cr.ClassError as err:
        own()[CLASS_ERROR] = classroom.say(err)


@ui.fragment(run_every=classroom.POLL_S)
def _live(code: str, state: cr.State, ex: tour.Exercise) -> None:
    """How many have voted in the open round (or the last one), and, behind the toggle, the
    count per choice: read again every POLL_S seconds."""
    rnd = state.round or (1 if state.phase == "discuss" else 2)
    try:
        counts = classroom.store().counts(code, state.stop, state.example, rnd)
    except cr.ClassError as err:
        st.warning(classroom.say(err))
        return
    n = sum(counts.values())
    st.markdown(ui.tr(f"classroom.voted_round{rnd}", n=n))
    if st.session_state.get(CLASS_COUNTS):
        parts = [f"{views.letter(ex, c.key)}: {counts.get(c.key, 0)}" for c in ex.choices]
        st.markdown(" · ".join(parts))


def panel(claim: str, seed: int, ex: tour.Exercise | None, revealed: bool) -> bool:
    """On a stop, with a class: move the class here, run its rounds; whether the stop is
    revealed (the tour's reveal button reveals to the class too). Without one: ``revealed``."""
    teacher = classroom.teaching()
    if teacher is None:
        return revealed
    code, key = teacher["code"], teacher["key"]
    try:
        state = classroom.store().state(code, fresh=0)
        if (state.stop, state.example) != (claim, seed):
            choices = [c.key for c in ex.choices] if ex else ()
            right = ex.right if ex else ""
            state = classroom.store().move(code, key, claim, seed, choices, right, ui.lang())
        if revealed and ex and state.phase != "reveal":
            state = classroom.store().set_phase(code, key, "reveal")
    except cr.ClassError as err:
        st.warning(ui.tr("classroom.teacher_offline", why=classroom.say(err)))
        return revealed
    said = own().pop(CLASS_ERROR, None)
    if said:
        st.error(said)
    if ex is None or state.phase == cr.base.NONE:
        return revealed
    if state.lang and state.lang != ui.lang():  # the class's example, not this language's
        ex = views.exercise(claim, seed, state.lang)[3] or ex
    with st.container(border=True, key="class_panel"):
        st.markdown(ui.tr("classroom.panel_title", code=code))
        if state.phase == "reveal":
            counts = tuple(classroom.store().counts(code, claim, seed, n) for n in (1, 2))
            views.distributions(ex, counts, f"class_rounds_{claim}_{seed}")
            return True
        _live(code, state, ex)
        st.toggle(ui.tr("classroom.show_counts"), key=CLASS_COUNTS)
        if state.phase == "vote1":
            st.button(ui.tr("classroom.close_round1"), on_click=_phase, args=("discuss",))
        elif state.phase == "discuss":
            st.info(ui.tr("classroom.discuss"))
            st.button(
                ui.tr("classroom.open_round2"), on_click=_phase, args=("vote2",), type="primary"
            )
    return revealed
