"""Traced multi-head forward against PyTorch's nn.MultiheadAttention.

PyTorch runs with need_weights=True, average_attn_weights=False, so both compute the
output and the per-head weights from the same weights. The figure is the ratio
ours / PyTorch's (median of repeated runs, same process). Target: ≤ 1.2 at every size.

The trace keeps the pre-softmax scores alive next to the weights, so each call frees two
(H, N, N) buffers at once; with glibc's default settings that is enough to hand the pages
back to the OS and fault them in again on the next call (a ~2x slowdown at N = 512 that
is page faults, not arithmetic). ``import attnviz`` raises glibc's mmap and trim
thresholds (attnviz/allocator.py); the bench runs three times: as a user gets it (the
default), with that switched off (``ATTNVIZ_KEEP_FREED=0``: glibc's own settings), and
with the equivalent environment variables the Docker image also sets (ALLOCATOR below).

    python -m bench.bench_engine
"""

import os
import statistics
import subprocess
import sys
import time
from functools import partial

import torch
from torch import nn

import attnviz

SIZES = [(64, 128, 8), (512, 384, 12), (1024, 512, 16)]  # (N, D, H)
ALLOCATOR = {"MALLOC_MMAP_THRESHOLD_": "134217728", "MALLOC_TRIM_THRESHOLD_": "536870912"}


def median_time(fn, repeats: int, sync: bool) -> float:
    fn()  # warm-up
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        if sync:
            torch.cuda.synchronize()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def run_torch(ref: nn.MultiheadAttention, x: torch.Tensor) -> None:
    ref(x, x, x, need_weights=True, average_attn_weights=False)


def run_ours(ours: attnviz.MultiHeadAttention, x: torch.Tensor) -> None:
    # N = 1024 is above the app's cap (512): time the unchecked arithmetic at every size.
    ours.compute(x, x, x, None)


@torch.inference_mode()
def measure() -> None:
    device = attnviz.resolve_device("auto")
    sync = device.type == "cuda"
    print(f"device: {device}, torch {torch.__version__}, threads {torch.get_num_threads()}")
    print(f"{'N':>5} {'D':>4} {'H':>3} {'torch ms':>9} {'attnviz ms':>10} {'ratio':>6}")
    for N, D, H in SIZES:
        ref = nn.MultiheadAttention(D, H, batch_first=True, device=device).eval()
        ours = attnviz.from_torch(ref)
        x = torch.randn(1, N, D, device=device)
        repeats = 30 if N <= 512 else 10
        t_ref, t_ours = [], []
        for _ in range(3):  # alternate so both share the machine's noise
            t_ref.append(median_time(partial(run_torch, ref, x), repeats, sync))
            t_ours.append(median_time(partial(run_ours, ours, x), repeats, sync))
        a, b = min(t_ref), min(t_ours)
        print(f"{N:>5} {D:>4} {H:>3} {a * 1e3:>9.2f} {b * 1e3:>10.2f} {b / a:>6.2f}")


def main() -> None:
    for title, extra in (
        ("default (import attnviz keeps freed memory)", {}),
        ("glibc's own settings (ATTNVIZ_KEEP_FREED=0)", {"ATTNVIZ_KEEP_FREED": "0"}),
        ("environment: " + " ".join(f"{k}={v}" for k, v in ALLOCATOR.items()), ALLOCATOR),
    ):
        print(f"== {title}", flush=True)
        subprocess.run(
            [sys.executable, "-c", "import bench.bench_engine as b; b.measure()"],
            env={**os.environ, **extra},
            check=True,
        )


if __name__ == "__main__":
    main()
