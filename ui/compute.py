"""One result cache for every page: a lesson's ``run(cfg)``, kept per process by config.

A page reads its widgets, builds the lesson's frozen ``Config`` with :func:`config`, and
calls :func:`compute` (or :func:`compute_with_progress`, under a progress bar); bad input
from either step is shown as a translated message and the page stops there (no traceback
reaches the browser).

All sessions of a server share one process and one table of results, keyed by (run,
config), the least recently used of a run dropped beyond its ``max_entries``. A class
asking for the same new setting at once computes it once: the first caller computes and
the others wait for its result (single flight, a lock per key). Every session gets the
very same object, not a copy: it is frozen before it is shared (ui.frozen), so a page
that wrote into it would raise rather than change what every other student sees, and
each of its parts keys a drawing as (run, config, path) (ui.fingerprint). At most ``MAX_HEAVY``
computations run at once per process while the rest wait with a message; a live
computation drawn as it goes (the training race) takes a slot for each of its steps in
turn (:func:`in_turn`). Each computation writes one line to the server's log: what, and
how long it took.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator
from contextlib import contextmanager
from typing import TypeVar

import streamlit as st

from attnviz.allocator import give_back
from attnviz.errors import InputError

from .fingerprint import forget
from .frozen import freeze
from .internals import server_log
from .language import tr
from .messages import error_box
from .page_run import stop

C = TypeVar("C")
R = TypeVar("R")

MAX_HEAVY = 2  # computations at once per process: one per core of a 2-core replica
_heavy = threading.BoundedSemaphore(MAX_HEAVY)
_flights: dict[Hashable, list] = {}  # key → [lock, callers holding or waiting for it]
_flights_lock = threading.Lock()
# (run, config) → (its result, frozen, and the parts registered), least recently used first
_results: OrderedDict[tuple[Callable, object], tuple[object, list[object]]] = OrderedDict()
_results_lock = threading.Lock()
_MISSING = object()
log = server_log(__name__)


def _logged(run: Callable[..., R], cfg: object, *args: object) -> R:
    """``run(cfg, *args)``, holding a heavy slot; one log line when it is done."""
    with _heavy:
        t0 = time.perf_counter()
        value = run(cfg, *args)
        give_back()  # what it freed is not held beside the next setting's working memory
    seconds, what = time.perf_counter() - t0, repr(cfg)  # a student's text: its start only
    log.info("computed %s in %.2f s: %s", run.__qualname__, seconds, what[:160])
    return value


_END = object()  # in_turn: the steps ran out


def in_turn(steps: Iterable[R]) -> Iterator[R]:
    """The items of ``steps``, each computed holding a heavy slot that is let go before it
    is drawn: a class's races count among the ``MAX_HEAVY`` computations step by step,
    waiting their turn with every other session's, and none holds a slot while it draws."""
    steps = iter(steps)
    while True:
        with _heavy:
            item = next(steps, _END)
        if item is _END:
            return
        yield item


def config(cls: Callable[..., C], **fields: object) -> C:
    """``cls(**fields)``, or a translated message and the end of this run if it is invalid."""
    try:
        return cls(**fields)
    except InputError as err:
        error_box(err)
        stop()


@contextmanager
def single_flight(key: Hashable) -> Iterator[None]:
    """Hold the lock of ``key``: concurrent callers with the same key run one at a time."""
    with _flights_lock:
        flight = _flights.setdefault(key, [threading.Lock(), 0])
        flight[1] += 1
    try:
        with flight[0]:
            yield
    finally:
        with _flights_lock:
            flight[1] -= 1
            if not flight[1]:
                del _flights[key]


def _cached(key: tuple[Callable, object]) -> object:
    """The result kept for ``key`` (now the most recently used), or ``_MISSING``."""
    with _results_lock:
        if key not in _results:
            return _MISSING
        _results.move_to_end(key)
        return _results[key][0]


def _keep(key: tuple[Callable, object], value: R, max_entries: int) -> R:
    """``value`` frozen and kept for ``key``; beyond ``max_entries`` results of its run,
    its least recently used is dropped (and its parts key by their contents again)."""
    held: list[object] = []
    value = freeze(value, key, held)
    with _results_lock:
        _results[key] = (value, held)
        runs = [k for k in _results if k[0] is key[0]]
        for old in runs[: max(0, len(runs) - max_entries)]:
            for part in _results.pop(old)[1]:
                forget(part)
    return value


def _computed(run: Callable, cfg: object, max_entries: int, *args: object) -> object:
    """``run(cfg, *args)`` computed once for concurrent callers and kept."""
    key = (run, cfg)
    with single_flight(key):
        value = _cached(key)
        if value is _MISSING:
            value = _keep(key, _logged(run, cfg, *args), max_entries)
    return value


def clear() -> None:
    """Drop every kept result (a benchmark's cold start)."""
    with _results_lock:
        while _results:
            for part in _results.popitem()[1][1]:
                forget(part)


def compute(run: Callable[[C], R], cfg: C, *, max_entries: int = 64, label: str | None = None) -> R:
    """``run(cfg)``, kept by the (hashable, frozen) config for every session of this
    process, frozen (ui.frozen): every session gets the very object, read-only.

    Concurrent calls with an equal config compute it once; the others wait for its result.
    Only a miss runs under a spinner: a spinner starts a timer thread and sends a message
    even when it never shows. ``max_entries``: the results of ``run`` kept, the least
    recently used dropped first; ``label``: the spinner's text (else the app's own).
    """
    try:
        value = _cached((run, cfg))
        if value is _MISSING:
            with st.spinner(label or tr("app.computing"), show_time=True):
                value = _computed(run, cfg, max_entries)
        return value
    except InputError as err:
        error_box(err)
        stop()


def compute_with_progress(
    run: Callable[[C, Callable[[float], None]], R],
    cfg: C,
    label: Callable[[float], str],
    *,
    max_entries: int = 64,
) -> R:
    """``run(cfg, progress)`` kept by config like :func:`compute`, under a progress bar.

    The variant for runs slow enough to need a bar: ``run`` calls ``progress(f)`` with the
    fraction f done and ``label(f)`` is the bar's text. The bar's place is drawn on a hit
    too, so that both runs draw the same page.
    """
    try:
        slot = st.empty()
        value = _cached((run, cfg))
        if value is _MISSING:
            bar = slot.progress(0.0, label(0.0))
            try:
                progress = lambda f: bar.progress(f, label(f))  # noqa: E731
                value = _computed(run, cfg, max_entries, progress)
            finally:
                slot.empty()
        return value
    except InputError as err:
        error_box(err)
        stop()
