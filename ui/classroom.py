"""A class as the app sees it: the store of this process (``ATTNVIZ_STORE``), its refusals in
the reader's language, the browser's anonymous id in a class (a cookie), and this session's
roles: the class it teaches (the key lives only in session state) and the classes it joined.

The student's id is a cookie, not a URL parameter: a reload and a move to another replica
keep it (every replica sees the site's cookies), while the share link, the student link
and a URL copied to a neighbour never carry it, so nobody votes as someone else by
sharing a link. The id is random (128 bits), issued by the store, and names no one.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable

import streamlit as st

from attnviz import classroom as cr

from .components import component
from .internals import rerun_pending
from .keys import CLASS_CLIENT, CLASS_STUDENT, CLASS_TEACHER, own
from .language import tr
from .page_run import fragment_run

COOKIE = component("attnviz.class_cookie", "class_cookie")
POLL_S = 1.0  # a student's screen asks where the class is this often (≤ 2 s behind)
HOLD_S = 15.0  # a fragment run that finds nothing new waits this long for a change…
TICK_S = 0.25  # …looking this often (in this process's copy of the state, Store.fresh)


@st.cache_resource(show_spinner=False)
def _store() -> cr.Store:
    return cr.open_store()


def store() -> cr.Store:
    """This process's store (``Unreachable`` if it cannot be opened: not cached, so the
    next run tries again)."""
    return _store()


def say(err: cr.ClassError) -> str:
    """A refusal in the reader's language."""
    return tr(f"classroom.err_{err.key}")


def cookie_name(code: str) -> str:
    return f"attnviz_class_{code}"


def client() -> str:
    """This session's name for the store's limit on wrong codes."""
    return own().setdefault(CLASS_CLIENT, uuid.uuid4().hex)


TEACHER_COOKIE = "attnviz_teach_"  # + the code: the teacher's key, in the teacher's browser


def teaching() -> dict | None:
    """{"code", "key"} of the class this session teaches, if any: kept in the session, or,
    after a reload (a new session), found again in the teacher's browser's cookie (written
    by :func:`keep_teacher`) if the store still accepts it."""
    held = own().get(CLASS_TEACHER)
    if held is not None:
        return held
    for name, key in (st.context.cookies or {}).items():
        if name.startswith(TEACHER_COOKIE):
            code = name[len(TEACHER_COOKIE) :]
            try:
                if store().is_teacher(code, key):
                    own()[CLASS_TEACHER] = {"code": code, "key": key}
                    return own()[CLASS_TEACHER]
            except cr.ClassError:
                return None
    return None


def keep_teacher(code: str, key: str) -> None:
    """The key into the teacher's browser's cookie (this site only, never in a URL), so a
    reload of the projector's page keeps the teacher's controls."""
    data = {"name": TEACHER_COOKIE + code, "value": key, "seconds": int(cr.TTL)}
    COOKIE(key=f"teacher_cookie_{code}", data=data)


def student(code: str) -> str | None:
    """This browser's id in class ``code``: from the session, else from its cookie (a reload)
    if the store knows it, else a new one from the store (``ClassError`` if refused)."""
    mine = own().setdefault(CLASS_STUDENT, {})
    if code in mine:
        return mine[code]
    kept = (st.context.cookies or {}).get(cookie_name(code))
    sid = None
    if kept:
        try:
            store().rejoin(code, kept)
            sid = kept
        except cr.UnknownStudent:
            sid = None
    if sid is None:
        _, sid = store().join(code, client())
    mine[code] = sid
    return sid


def keep_cookie(code: str, sid: str) -> None:
    """Write the id into the browser's cookie for as long as a class lives."""
    data = {"name": cookie_name(code), "value": sid, "seconds": int(cr.TTL)}
    COOKIE(key=f"class_cookie_{code}", data=data)


def watch(changed: Callable[[], bool]) -> bool:
    """In a fragment's own run (its poll), wait up to ``HOLD_S`` for ``changed()``, looking
    every ``TICK_S``; True as soon as it is. A waiting thread costs no CPU, where each poll
    costs a Streamlit rerun: a hall of students idle on a stop then costs one
    poll per student per ``HOLD_S``, not per ``POLL_S``, and still follows within a tick.
    Any other rerun of the session (a vote) ends the wait at once. In a full run of the page
    the fragment runs inline: no wait there."""
    if not fragment_run():
        return changed()
    deadline = time.monotonic() + HOLD_S
    while not changed():
        if time.monotonic() >= deadline or rerun_pending():
            return False
        time.sleep(TICK_S)
    return True
