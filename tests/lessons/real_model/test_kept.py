"""The real-model page's per-text caches are bounded by the bytes they hold, not only by
how many texts: a few long texts must not outgrow the server's memory."""

import threading
import time

import numpy as np

from attnviz.lessons.real_model import forward
from attnviz.lessons.real_model.kept import kept, nbytes


def test_the_least_recently_used_go_first_once_the_bytes_are_over():
    calls = []

    @kept(max_bytes=3_000, max_entries=10)
    def arrays(n: int) -> tuple:
        calls.append(n)
        return (np.zeros(n // 8), {"png": b"x" * 0})

    for n in (1_000, 1_000 + 8, 1_000 + 16):  # 3,024 bytes in all: the first goes
        arrays(n)
    assert arrays.cache_info().currsize == 2 and arrays.cache_info().nbytes == 2_024
    arrays(1_000 + 8)  # kept: a hit
    arrays(1_000)  # dropped: computed again
    assert calls == [1_000, 1_008, 1_016, 1_000]
    info = arrays.cache_info()
    assert (info.hits, info.misses) == (1, 4)
    big = arrays(80_000)  # larger than the bound alone: kept, the only one
    assert arrays(80_000) is big and arrays.cache_info().currsize == 1


def test_callers_asking_at_once_compute_once():
    calls = []

    @kept(max_bytes=1 << 20, max_entries=4)
    def slow(x: int) -> int:
        calls.append(x)
        time.sleep(0.2)
        return x

    threads = [threading.Thread(target=slow, args=(7,)) for _ in range(5)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert calls == [7]


def test_an_encoding_counts_its_maps():
    enc, rolled, inputs = forward.encode("The cat sat on the mat.")
    assert nbytes((enc, rolled, inputs)) >= enc.attentions.nbytes + enc.norms.nbytes
