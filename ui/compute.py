"""One caching style for every page: a lesson's ``run(cfg)``, cached per process by config.

A page reads its widgets, builds the lesson's frozen ``Config`` with :func:`config`, and
calls :func:`compute`; bad input from either step is shown as a translated message and
the page stops there (no traceback reaches the browser).

All sessions of a server share one process. A class asking for the same new setting at
once computes it once: ``st.cache_data`` (Streamlit 1.67) holds a lock per entry, so the
first caller computes and the others wait for its result (single flight; the depth page's
own table, below, does the same with a lock per config). At most ``MAX_HEAVY``
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
from streamlit.logger import get_logger

from attnviz.errors import InputError

from .language import tr
from .messages import error_box
from .page_run import stop

C = TypeVar("C")
R = TypeVar("R")

MAX_HEAVY = 2  # computations at once per process: one per core of a 2-core replica
_heavy = threading.BoundedSemaphore(MAX_HEAVY)
_cached: dict[Callable, Callable] = {}
_flights: dict[Hashable, list] = {}  # key → [lock, callers holding or waiting for it]
_flights_lock = threading.Lock()
_recent: dict[Callable, OrderedDict] = {}  # run → {config: result} asked for lately, latest last
_recent_lock = threading.Lock()
log = get_logger(__name__)


def _logged(run: Callable[..., R], cfg: object, *args: object) -> R:
    """``run(cfg, *args)``, holding a heavy slot; one log line when it is done."""
    with _heavy:
        t0 = time.perf_counter()
        value = run(cfg, *args)
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


def _cache(run: Callable[[C], R], max_entries: int) -> Callable[[C], R]:
    """``run`` behind ``st.cache_data``; a miss holds one of the ``MAX_HEAVY`` slots."""
    if run not in _cached:

        def guarded(cfg: C) -> R:
            return _logged(run, cfg)

        # st.cache_data keys a function by module, qualified name and source: name it
        # after the lesson so that each lesson has a cache of its own.
        guarded.__module__, guarded.__qualname__ = run.__module__, run.__qualname__
        _cached[run] = st.cache_data(guarded, max_entries=max_entries, show_spinner=False)
    return _cached[run]


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


_NONE = object()  # _recent_value: not asked for lately


def _recent_value(run: Callable[[C], R], cfg: C) -> R | object:
    """What ``run`` returned for ``cfg`` lately (which then becomes the latest), or ``_NONE``."""
    with _recent_lock:
        recent = _recent.setdefault(run, OrderedDict())
        if cfg not in recent:
            return _NONE
        recent.move_to_end(cfg)
        return recent[cfg]


def _keep_recent(run: Callable[[C], R], cfg: C, value: R, keep: int) -> None:
    """Keep ``value`` as ``run``'s latest result, for ``cfg``, and its last ``keep`` only."""
    with _recent_lock:
        recent = _recent.setdefault(run, OrderedDict())
        recent[cfg] = value
        recent.move_to_end(cfg)
        while len(recent) > keep:
            recent.popitem(last=False)


def compute(run: Callable[[C], R], cfg: C, *, max_entries: int = 64) -> R:
    """``run(cfg)``, cached by the (hashable, frozen) config across sessions of this process.

    Concurrent calls with an equal config compute it once; the others get the cached result.
    A config not asked for lately computes under a spinner; a recent one (the last half
    of the cache's entries, which its least-recently-used eviction keeps) is read without:
    a spinner starts a timer thread and sends a message even when it never shows: 8 % of
    the multi-head page's script time on a 2-core server (py-spy, changes of H). A recent
    result is also shared as it is, not the copy ``st.cache_data`` unpickles for every
    call (a tenth of the block anatomy page's rerun): pages only read it.
    """
    cached = _cache(run, max_entries)
    try:
        keep = max(1, max_entries // 2)
        value = _recent_value(run, cfg)
        if value is not _NONE:
            return value
        with st.spinner(tr("app.computing"), show_time=True):
            value = cached(cfg)
        _keep_recent(run, cfg, value, keep)
        return value
    except InputError as err:
        error_box(err)
        stop()


_progressed: dict[Callable, OrderedDict] = {}  # run → {cfg: result}, least recently used first
_progressed_lock = threading.Lock()


def compute_with_progress(
    run: Callable[[C, Callable[[float], None]], R],
    cfg: C,
    label: Callable[[float], str],
    *,
    max_entries: int = 64,
) -> R:
    """``run(cfg, progress)`` cached by config like :func:`compute`, under a progress bar.

    The variant for runs slow enough to need a bar: ``run`` calls ``progress(f)`` with the
    fraction f done and ``label(f)`` is the bar's text. ``st.cache_data`` records what a
    cached function draws and replays it on a hit, so a bar moved from inside a cached
    ``run`` would be replayed onto a bar of an earlier script run and fail. Here ``run`` is
    called outside any Streamlit cache and its results are kept in a table of their own,
    per process and per ``run``, the least recently used dropped beyond ``max_entries``.
    As in :func:`compute`, equal configs compute once and a miss holds a heavy slot. The
    result is shared, not copied as ``st.cache_data`` does: pages only read it.
    """
    try:
        slot = st.empty()  # the bar's place, drawn on a hit too: both runs draw the same page
        with single_flight((run, cfg)):
            with _progressed_lock:
                results = _progressed.setdefault(run, OrderedDict())
                if cfg in results:
                    results.move_to_end(cfg)
                    return results[cfg]
            bar = slot.progress(0.0, label(0.0))
            try:
                value = _logged(run, cfg, lambda f: bar.progress(f, label(f)))
            finally:
                slot.empty()
            with _progressed_lock:
                results[cfg] = value
                while len(results) > max_entries:
                    results.popitem(last=False)
            return value
    except InputError as err:
        error_box(err)
        stop()
