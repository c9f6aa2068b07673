"""Drawn once, not once per student: what a rerun draws from a configuration already drawn
(a figure's document, a component's payload, a table, formulas) is built once per process
and shared by every session with the same configuration, language and presentation mode.

A class asked to set D to 512 at once reruns the page forty times in one process, its
Python taking turns under one GIL; computing each setting once (ui.compute) left every
rerun building its figures again through Plotly's validators (the block anatomy page's
flow chart: ~370 ``layout.Annotation`` objects a rerun). Here ``drawn(build, *same)`` calls
``build()`` once for its code, ``same``, the language and the presentation mode; the
value is shared, not copied: callers only read it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TypeVar

from .compute import single_flight
from .language import lang
from .layout import presenting

T = TypeVar("T")

MAX_DRAWN = 256  # entries per process, the least recently used dropped first
_drawn: OrderedDict[Hashable, object] = OrderedDict()
_lock = threading.Lock()


def drawn(build: Callable[[], T], *same: Hashable) -> T:
    """``build()``, built once per process for the code of ``build`` (the place it is
    written), ``same``, this run's language and presentation mode.

    ``same`` names everything ``build`` reads besides those two: the lesson's config and
    whatever the page chose beside it (a D picked from the results, a token)."""
    return drawn_as((*place(build), same), build)


def place(build: Callable) -> tuple:
    """Where ``build`` is written: its code (equal for a function compiled again from the
    same text, as a page's is on every rerun) and its file (which code equality ignores)."""
    return build.__code__, build.__code__.co_filename


def drawn_as(what: Hashable, build: Callable[[], T]) -> T:
    """``build()`` once per process for ``what``, the language and presentation mode;
    sessions asking at once wait for the first one's value."""
    key = (what, lang(), presenting())
    found = _get(key)
    if found is not _MISSING:
        return found
    with single_flight(("drawn", key)):
        found = _get(key)
        if found is _MISSING:
            found = build()
            with _lock:
                _drawn[key] = found
                while len(_drawn) > MAX_DRAWN:
                    _drawn.popitem(last=False)
    return found


_MISSING = object()


def _get(key: Hashable) -> object:
    with _lock:
        if key not in _drawn:
            return _MISSING
        _drawn.move_to_end(key)
        return _drawn[key]
