"""A cache bounded by the bytes it holds, for the page's per-text results: a 512-token
text's encoding holds every layer's and head's N × N maps twice (weights, contributions),
so a count of texts alone (``functools.lru_cache``) lets a few long texts outgrow the
server's memory while short ones would fit by the hundred."""

from __future__ import annotations

import dataclasses
import functools
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import NamedTuple


class Info(NamedTuple):
    hits: int
    misses: int
    currsize: int
    nbytes: int


def nbytes(value: object, depth: int = 3) -> int:
    """The bytes of the arrays (and byte strings) ``value`` holds, through tuples, lists,
    dicts and dataclasses ``depth`` levels down."""
    if hasattr(value, "nbytes"):
        return int(value.nbytes)
    if isinstance(value, bytes | bytearray):
        return len(value)
    if depth == 0:
        return 0
    if isinstance(value, dict):
        return sum(nbytes(v, depth - 1) for v in value.values())
    if isinstance(value, list | tuple):
        return sum(nbytes(v, depth - 1) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return sum(nbytes(getattr(value, f.name), depth - 1) for f in dataclasses.fields(value))
    return 0


def kept(max_bytes: int, max_entries: int) -> Callable[[Callable], Callable]:
    """Like ``functools.lru_cache(maxsize=max_entries)``, and also dropping the least
    recently used results while they hold more than ``max_bytes`` (the latest one is kept
    whatever its size). Callers asking for the same arguments at once compute them once.
    ``cache_info()`` and ``cache_clear()`` as lru_cache's."""

    def decorate(fn: Callable) -> Callable:
        held: OrderedDict[tuple, tuple[object, int]] = OrderedDict()
        lock, flights = threading.Lock(), {}
        counts = {"hits": 0, "misses": 0, "bytes": 0}

        @functools.wraps(fn)
        def cached(*args):
            with lock:
                if args in held:
                    held.move_to_end(args)
                    counts["hits"] += 1
                    return held[args][0]
                flight = flights.setdefault(args, threading.Lock())
            with flight:
                with lock:
                    if args in held:
                        counts["hits"] += 1
                        return held[args][0]
                try:
                    value = fn(*args)
                finally:
                    with lock:
                        flights.pop(args, None)
                size = nbytes(value)
                with lock:
                    counts["misses"] += 1
                    held[args] = (value, size)
                    counts["bytes"] += size
                    while len(held) > 1 and (
                        len(held) > max_entries or counts["bytes"] > max_bytes
                    ):
                        counts["bytes"] -= held.popitem(last=False)[1][1]
                return value

        def cache_info() -> Info:
            with lock:
                return Info(counts["hits"], counts["misses"], len(held), counts["bytes"])

        def cache_clear() -> None:
            with lock:
                held.clear()
                counts.update(hits=0, misses=0, bytes=0)

        cached.cache_info, cached.cache_clear = cache_info, cache_clear
        return cached

    return decorate
