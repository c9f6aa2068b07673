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

import pandas as pd

from .compute import single_flight
from .language import lang
from .layout import presenting

T = TypeVar("T")

MAX_DRAWN = 256  # entries per process, the least recently used dropped first, and
MAX_BYTES = 256 * 2**20  # about as many bytes (a figure of a 512 x 512 map: ~1.5 MB)
_drawn: OrderedDict[Hashable, tuple[object, int]] = OrderedDict()  # key → (value, bytes)
_held = [0]  # bytes of every value in _drawn
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
            size = nbytes(found)
            with _lock:
                _drawn[key] = (found, size)
                _held[0] += size
                while len(_drawn) > MAX_DRAWN or (_held[0] > MAX_BYTES and len(_drawn) > 1):
                    _held[0] -= _drawn.popitem(last=False)[1][1]
    return found


def nbytes(value: object) -> int:
    """About how many bytes ``value`` holds: its arrays', strings' and tables' data, and
    8 a number, through dicts, sequences and dataclasses (what pages draw from)."""
    if isinstance(value, str | bytes):
        return len(value)
    if isinstance(value, dict):
        return sum(nbytes(k) + nbytes(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return sum(nbytes(v) for v in value)
    if hasattr(value, "nbytes"):  # numpy arrays, Arrow tables, pandas series
        return int(value.nbytes)
    if hasattr(value, "__dataclass_fields__"):
        return sum(nbytes(getattr(value, f)) for f in value.__dataclass_fields__)
    if isinstance(value, pd.DataFrame):
        return int(value.memory_usage().sum())
    return 8


_MISSING = object()


def _get(key: Hashable) -> object:
    with _lock:
        if key not in _drawn:
            return _MISSING
        _drawn.move_to_end(key)
        return _drawn[key][0]
