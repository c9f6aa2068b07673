"""A run of the app: what app.py sets up before the page draws and finishes after it, how
a page moves its controls (``settle``) or ends early (``stop``), and where an exception that
no page handles ends (``run_page``, ``fragment``: shown as the app's error, with an id)."""

from __future__ import annotations

import functools
from collections.abc import Callable

import streamlit as st

from .keys import BOUND, FIGURES, LINKED, NOTES, PAGE_RUN, RELABEL, SETTLE, SETTLED, SHOWN_IN, own
from .language import lang
from .messages import app_error
from .share import share_link
from .this_run import held


def begin_page() -> None:
    """Start a run (from app.py): forget the last run's URL keys; make room for URL notices;
    note whether the language changed since the last run (the controls relabel then)."""
    state = own()
    state[PAGE_RUN] = True
    state[BOUND] = {}
    state[NOTES] = st.container()
    state[FIGURES] = None  # until a page's columns are drawn (ui.split)
    state[LINKED] = False
    state[RELABEL] = state.get(SHOWN_IN, lang()) != lang()
    values, why = state.pop(SETTLE, ({}, None))
    st.session_state.update(values)  # before any widget: a widget's value may be set then
    state[SETTLED] = why


def settle(why: str, **values: object) -> None:
    """Show the controls at the values this run used, where the page had to move one (H
    to a divisor of D, say): the widgets are drawn already, so the run starts again with
    them moved, and ``settled()`` gives that run ``why``. Nothing happens when every
    control already holds its value, or in a run that a settle started (never a loop)."""
    moved = {k: v for k, v in values.items() if st.session_state.get(k) != v}
    if moved and settled() is None:
        # every control of this run is set again, not only those moved: one first drawn
        # in this run never reached the browser, which would show its widget's own empty
        # default (the example text blank, while the page computed with it)
        drawn = own().get(BOUND, {})
        kept = {k: st.session_state[k] for k in drawn if k in st.session_state}
        own()[SETTLE] = (kept | moved, why)
        st.rerun()


def settled() -> str | None:
    """Why the last run moved this run's controls (``settle``), or None."""
    return own().get(SETTLED)


# Icons that mark a notice telling of a change once, as it happens: a control moved (settle)
# or a typed text cut to its cap (ui.widgets.text). A link to the view, whose URL holds the
# value as it now is, opens it without the notice; tests/load/stclient.py leaves it out of
# the view it compares.
SETTLED_ICON = ":material/swap_vert:"
CUT_ICON = ":material/content_cut:"
ONCE_ICONS = (SETTLED_ICON, CUT_ICON)


def show_settled(where=st) -> None:
    """``settled()``'s notice, in ``where``, if the last run moved a control. It belongs to
    the change that moved it: a link to this view (whose URL holds the moved value) opens
    the view without it."""
    if why := settled():
        where.info(why, icon=SETTLED_ICON)


def run_page(page: st.Page) -> None:
    """Run ``page`` (from app.py). An exception it does not handle is the app's own fault
    (a student's bad input and each expected outcome have their own types, handled where
    they arise): ``app_error`` logs it and shows the app's error with its id."""
    try:
        page.run()
    except Exception as err:  # st.stop and st.rerun are no Exception: they pass
        app_error(err)


def fragment(func: Callable | None = None, **options: object) -> Callable:
    """``st.fragment(func, **options)``, whose own runs end as ``run_page`` ends a page's."""
    if func is None:
        return functools.partial(fragment, **options)

    @functools.wraps(func)  # the fragment's identity: func's module and name
    def caught(*args: object, **kwargs: object) -> object:
        try:
            with held():  # a fragment's own run, as app.py's: the switches read once
                return func(*args, **kwargs)
        except Exception as err:
            app_error(err)

    return st.fragment(caught, **options)


def fragment_run() -> bool:
    """True in a fragment's own run (a click inside it, its timer), not the page's."""
    return not own().get(PAGE_RUN)


def end_page() -> None:
    """End a run (app.py, whatever stopped it): a later fragment's run is its own, with no
    figures' column; the share link; the language drawn in."""
    own().update({PAGE_RUN: False, FIGURES: None})
    share_link()
    own()[SHOWN_IN] = lang()


def stop() -> None:
    """End this run here, after writing the controls read so far into the URL and the share
    link (Streamlit drops whatever a run draws after ``st.stop()``, app.py's link included)."""
    share_link()
    st.stop()
