"""What stays fixed for the rest of a run once its switches are drawn: the language and
presentation mode, read from the session once instead of on every call.

A page asks for the language ~100 times a run (every string, every shared drawing's key)
and for presentation mode ~15 times. Each read of ``st.session_state`` goes through
Streamlit's layers, ~35 Python calls: on the multi-head page, a quarter of a rerun's
calls. Both values can change only before a run draws its switches (the browser's new
choice, a link's ``?lang=``), never after, so app.py holds them from its sidebar to the
run's end (``held``), and a fragment's own run holds them for its length. Outside a held
span (before the switches, in a test calling a helper directly) each call reads the
session as before.

A run is one thread from start to end; the values are kept per thread, and dropped when
the span ends, so that the next run on that thread (Streamlit reuses a session's thread)
reads them again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")
_run = threading.local()


@contextmanager
def held() -> Iterator[None]:
    """Within this span, each :func:`once` value is read at most once (a span inside
    another, a fragment drawn by the page's run, is part of it)."""
    if getattr(_run, "values", None) is not None:
        yield
        return
    _run.values = {}
    try:
        yield
    finally:
        _run.values = None


def once(name: str, read: Callable[[], T]) -> T:
    """``read()``, kept for the rest of the span of :func:`held` this run is in, if any."""
    values = getattr(_run, "values", None)
    if values is None:
        return read()
    if name not in values:
        values[name] = read()
    return values[name]
