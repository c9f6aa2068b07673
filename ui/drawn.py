"""Drawn once, not once per student: what a rerun draws from a configuration already drawn
(a figure's document, a component's payload, a table, formulas) is built once per process
and shared by every session whose build reads the same values, in the same language and
presentation mode.

A class asked to set D to 512 at once reruns the page forty times in one process, its
Python taking turns under one GIL; computing each setting once (ui.compute) left every
rerun building its figures again through Plotly's validators (the block anatomy page's
flow chart: ~370 ``layout.Annotation`` objects a rerun). Here ``drawn(build)`` calls
``build()`` once per key, and the key is derived from what ``build`` reads
(ui.fingerprint): its code, its closure's values, its defaults and the globals it loads
by name, a result of ui.compute standing for itself as (run, config, path). Nothing is
listed by hand, so a build cannot read a value its key forgets (a function importable by
name stands for itself: an imported module's state is the process's, the same for every
session). A build reading something no key stands for (an object compared by identity,
``st.session_state`` or ``st.query_params`` in its own code) is built for this run alone,
unshared; the test suite sets ``STRICT`` and gets an error instead. The value
is shared, not copied: callers only read it (a build reading it keys it by its contents).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TypeVar

import pandas as pd

from . import fingerprint as keys
from .compute import single_flight
from .internals import server_log
from .language import lang
from .layout import presenting

T = TypeVar("T")

MAX_DRAWN = 256  # entries per process, the least recently used dropped first, and
MAX_BYTES = 256 * 2**20  # about as many bytes (a figure of a large map holds a few MB)
_drawn: OrderedDict[Hashable, tuple[object, int]] = OrderedDict()  # key → (value, bytes)
_held = [0]  # bytes of every value in _drawn
_lock = threading.Lock()
log = server_log(__name__)


def drawn(build: Callable[[], T]) -> T:
    """``build()``, built once per process for what it reads (:func:`key`), this run's
    language and presentation mode; built unshared if no key stands for what it reads."""
    try:
        what = key(build)
    except keys.Unkeyable as err:
        if keys.STRICT:
            raise
        log.warning("drawn unshared, %s: %s", getattr(build, "__qualname__", build), err)
        return build()
    return drawn_as(what, build)


def key(build: Callable) -> Hashable:
    """What ``build`` reads, as a key (ui.fingerprint): its code, its file (which code
    equality ignores) and the values of its cells, defaults and globals."""
    return keys.fingerprint(build)


def drawn_as(what: Hashable, build: Callable[[], T]) -> T:
    """``build()`` once per process for ``what``, an explicit key naming everything it
    reads, the language and presentation mode; sessions asking at once wait for the first
    one's value."""
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


def clear() -> None:
    """Drop every drawn value (a benchmark's cold start)."""
    with _lock:
        _drawn.clear()
        _held[0] = 0


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
