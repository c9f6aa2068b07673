"""A student in a class (pages/start/classroom.py): the screen follows the teacher's stop,
example and round; the student votes alone, may change the vote until the round closes, and
sees the figure, the verdict and both rounds' distributions once the teacher reveals.

The screen asks the store where the class is every ``ui.classroom.POLL_S`` seconds, in a
fragment that draws nothing and, finding nothing new, waits for a change (ui.classroom.watch):
only a change of stop, example or phase reruns the page.
"""

from __future__ import annotations

import streamlit as st

import ui
from attnviz import classroom as cr
from attnviz.lessons import tour
from pages.start import classroom_views as views
from pages.start import tour_stop
from ui import classroom
from ui.keys import CLASS_LAST, CLASS_SAID, CLASS_SEEN, own


def _now(store: cr.Store, code: str) -> tuple:
    try:
        s = store.state(code)
        return (code, s.stop, s.example, s.phase)
    except cr.ClassError as err:  # unreachable or ended: the page says which
        return (code, "error", err.key)


@ui.fragment(run_every=classroom.POLL_S)
def follow(code: str) -> None:
    """Rerun the page when the class has moved (the teacher's stop, example or phase); a
    poll that finds nothing new waits for a change (ui.classroom.watch)."""
    seen = own().get(CLASS_SEEN)
    try:
        store = classroom.store()
    except cr.ClassError:  # not even opened: the page says so; a reload tries again
        return
    if classroom.watch(lambda: _now(store, code) != seen):
        st.rerun(scope="app")


def _vote(code: str, sid: str, state: cr.State, widget: str) -> None:
    """The radio's callback: the vote into the store, and what the screen then says."""
    choice = st.session_state.get(widget)
    said = own().setdefault(CLASS_SAID, {})
    if choice is None:
        return
    try:
        classroom.store().vote(code, sid, state.stop, state.example, state.round, choice)
        said.pop(widget, None)
    except cr.ClassError as err:
        said[widget] = classroom.say(err)  # this round's ballot only


# A poll waiting for the teacher is a script run: Streamlit would show "Running… Stop" in the
# header the whole time. Hidden while it runs (a lost connection still shows).
QUIET = (
    "<style>[data-testid=stStatusWidget]:has([data-testid=stStatusWidgetRunningIcon])"
    "{visibility:hidden}</style>"
)


def show(code: str) -> None:
    st.html(QUIET)
    try:
        sid = classroom.student(code)
        state = classroom.store().state(code)
    except cr.Unreachable as err:
        own()[CLASS_SEEN] = (code, "error", err.key)
        follow(code)
        alone(code, err)
        return
    except cr.ClassError as err:
        own()[CLASS_SEEN] = (code, "error", err.key)
        st.error(classroom.say(err))
        if not isinstance(err, cr.TooManyGuesses | cr.BadCode):
            follow(code)  # a class that ends or expires under the student shows it
        return
    classroom.keep_cookie(code, sid)
    own()[CLASS_SEEN] = (code, state.stop, state.example, state.phase)
    own()[CLASS_LAST] = state
    follow(code)
    st.caption(ui.tr("classroom.joined", code=code))
    if not state.stop:
        st.info(ui.tr("classroom.waiting"))
        return
    stop = tour.stop(state.stop, ui.lang(), state.example)
    st.markdown(f"**{state.stop}** · {ui.tr(f'tour.{state.stop.lower()}_claim')}")
    st.latex(stop.formula)
    ask, cfg, r, ex = views.exercise(state.stop, state.example, state.lang)
    if ex is None or state.phase == cr.base.NONE:
        st.info(ui.tr("classroom.asks_nothing"))
        return
    st.markdown(f"**{ui.tr('tour.question')}** {ex.question}")
    try:
        if state.phase == "reveal":
            reveal(code, sid, state, ask, cfg, r, ex)
        elif state.phase == "discuss":
            mine = classroom.store().my_vote(code, sid, state.stop, state.example, 1)
            st.info(ui.tr("classroom.discuss"))
            if mine:
                st.markdown(ui.tr("classroom.you_said", answer=views.lettered(ex, mine)))
        else:
            ballot(code, sid, state, ex)
    except cr.ClassError as err:
        st.warning(classroom.say(err))


def ballot(code: str, sid: str, state: cr.State, ex: tour.Exercise) -> None:
    """This round's choices; the vote counted, or why not."""
    rnd = state.round
    mine = classroom.store().my_vote(code, sid, state.stop, state.example, rnd)
    keys = [c.key for c in ex.choices]
    widget = f"class_vote_{code}_{state.stop}_{state.example}_{rnd}"
    st.subheader(ui.tr(f"classroom.vote_round{rnd}"))
    st.radio(
        ui.tr("tour.your_answer"),
        keys,
        index=keys.index(mine) if mine in keys else None,  # the store's vote: a reload shows it
        format_func=lambda k: views.lettered(ex, k),
        key=widget,
        on_change=_vote,
        args=(code, sid, state, widget),
    )
    said = own().get(CLASS_SAID, {}).get(widget)
    if said:
        st.warning(said)
    elif mine:
        st.success(ui.tr("classroom.counted", answer=views.letter(ex, mine)))


def reveal(code, sid, state, ask, cfg, r, ex) -> None:
    """The verdict on the student's last vote, the figure and both rounds."""
    store = classroom.store()
    mine = store.my_vote(code, sid, state.stop, state.example, 2) or store.my_vote(
        code, sid, state.stop, state.example, 1
    )
    answer = None if mine is None else dict(choice=mine, right=ex.is_right(mine))
    tour_stop.verdict(ex, answer)
    counts = tuple(store.counts(code, state.stop, state.example, n) for n in (1, 2))
    views.distributions(ex, counts, f"class_rounds_{state.stop}_{state.example}")
    key = state.stop.lower()
    tour_stop.figure(ask, cfg, r, state.example, f"tour_{key}", f"tour_{key}")


def alone(code: str, err: cr.ClassError) -> None:
    """The store unreachable: the notice, and the last stop the class was on, answered
    alone as the tour answers it (nothing is sent)."""
    st.warning(classroom.say(err))
    last = own().get(CLASS_LAST)
    if last is None or not last.stop:
        st.page_link("pages/start/tour.py", label=ui.tr("classroom.tour_alone"), icon="➡️")
        return
    tour_stop.show(last.stop, last.example)  # answered in this session, as the tour does
