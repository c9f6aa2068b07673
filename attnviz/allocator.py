"""Keep freed attention maps' memory in the process (glibc only), without any set-up.

A traced attention call frees two (B, H, N, N) buffers (scores and weights) at once.
With glibc's default settings each is an ``mmap`` of its own, handed back to the OS when
freed and faulted in again by the next call, which then pays for the page faults
(bench/bench_engine.py prints the cost). Raising the mmap and trim thresholds, as the environment
variables ``MALLOC_MMAP_THRESHOLD_`` / ``MALLOC_TRIM_THRESHOLD_`` would, keeps those pages
in the heap for the next call. ``import attnviz`` applies it once; set
``ATTNVIZ_KEEP_FREED=0`` to leave the allocator as it is.
"""

from __future__ import annotations

import ctypes
import os
import sys

M_TRIM_THRESHOLD = -1  # mallopt parameters, from glibc's <malloc.h>
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 128 * 2**20  # allocations below this come from the heap
TRIM_THRESHOLD = 512 * 2**20  # free heap top kept before it is returned to the OS


class MallInfo2(ctypes.Structure):
    """glibc's ``struct mallinfo2`` (every field a size_t)."""

    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            *("arena", "ordblks", "smblks", "hblks", "hblkhd"),
            *("usmblks", "fsmblks", "uordblks", "fordblks", "keepcost"),
        )
    ]


def _glibc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    libc = ctypes.CDLL(None)
    return libc if hasattr(libc, "gnu_get_libc_version") and hasattr(libc, "mallopt") else None


def keep_freed_memory() -> bool:
    """Raise glibc's mmap and trim thresholds; True if both took effect (False off glibc)."""
    libc = _glibc()
    if libc is None or os.environ.get("ATTNVIZ_KEEP_FREED") == "0":
        return False
    ok = libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1
    return libc.mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD) == 1 and ok


def mallinfo() -> MallInfo2 | None:
    """The allocator's statistics now (``hblkhd``: bytes held in mmapped blocks)."""
    libc = _glibc()
    if libc is None or not hasattr(libc, "mallinfo2"):
        return None
    libc.mallinfo2.restype = MallInfo2
    return libc.mallinfo2()


def give_back() -> bool:
    """Return the heap's free memory to the OS now (``malloc_trim(0)``); True if some was.

    The thresholds above keep freed maps for the next call of the same size; a server calls
    this after a computation of its own (a class's new setting), so that what one setting
    freed is not held beside the next one's working memory when two compute at once."""
    libc = _glibc()
    if libc is None or not hasattr(libc, "malloc_trim"):
        return False
    return bool(libc.malloc_trim(0))
