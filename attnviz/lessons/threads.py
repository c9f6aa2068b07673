"""Torch's intra-op threads while a lesson trains or takes gradients, or shows a rounding
error (the equivariance lesson: its digits follow the thread count): one.

A host runs one server process per core (docs/hosting.md), so a class's computations run in
several processes at once on the same cores. Measured on 2 cores, nothing else running
(load about 1), 2026-12-07: two processes each taking the depth page's
gradients at L = 4, D = 128 on two threads each took 1.42–1.53 s; on one thread each,
0.47 s (two threads alone: 0.43 s; at D = 512, L = 24 alone, 0.75–0.84 s against
1.03–1.08 s on one thread). The training race measured the same: the same numbers, about as
fast alone, much faster beside other work.

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
