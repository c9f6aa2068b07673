"""Torch's intra-op threads while a lesson trains or takes gradients, or shows a rounding
error (the equivariance lesson: its digits follow the thread count): one.

A host runs one server process per core (docs/hosting.md), so a class's computations run in
several processes at once on the same cores. Two processes that each take the depth page's
gradients on two threads fight over the cores and each takes about three times as long as
on one thread each; alone, two threads save little (bench/README.md, bench_training). The
training race is the same: the same numbers, about as fast alone, much faster beside other
work.

Torch's count is shared between a process's threads (one thread's ``set_num_threads(1)``
holds for the others), so the count of before comes back after the last of the
computations running at once, not after each (restoring each one's own earlier count could
leave the process at one thread).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import torch

THREADS = 1
_lock = threading.Lock()
_running = [0, 0]  # computations inside one_thread in this process; the count to restore


@contextmanager
def one_thread() -> Iterator[None]:
    """Torch on ``THREADS`` intra-op threads inside the block."""
    with _lock:
        if not _running[0]:
            _running[1] = torch.get_num_threads()
        _running[0] += 1
        torch.set_num_threads(THREADS)
    try:
        yield
    finally:
        with _lock:
            _running[0] -= 1
            if not _running[0]:
                torch.set_num_threads(_running[1])
