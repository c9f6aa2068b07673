"""``import attnviz`` keeps freed attention buffers in the heap (glibc), read back by behaviour."""

import subprocess
import sys
from pathlib import Path

import pytest

from attnviz import allocator

ROOT = Path(__file__).resolve().parents[1]
# Allocate and hold a 16 MiB tensor (an attention map at H = 16, N = 512), then report
# how many bytes the allocator holds in mmapped blocks beyond the baseline.
PROBE = """
import ctypes, importlib.util, torch
{imports}
spec = importlib.util.spec_from_file_location("alloc", "attnviz/allocator.py")
alloc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(alloc)  # the module alone, without running attnviz/__init__.py
before = alloc.mallinfo().hblkhd
x = torch.empty(16, 512, 512)
print(alloc.mallinfo().hblkhd - before)
"""

pytestmark = pytest.mark.skipif(allocator.mallinfo() is None, reason="glibc only")


def mmapped_growth(imports: str, **env: str) -> int:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE.format(imports=imports)],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return int(proc.stdout.split()[-1])


@pytest.mark.slow  # fresh interpreters that import torch
def test_import_attnviz_serves_large_maps_from_the_heap():
    # without attnviz: the default allocator mmaps a 16 MiB block
    assert mmapped_growth("") >= 16 * 2**20
    assert mmapped_growth("import attnviz") == 0  # after import attnviz: from the heap
    assert mmapped_growth("import attnviz", ATTNVIZ_KEEP_FREED="0") >= 16 * 2**20


@pytest.mark.slow  # a fresh interpreter that runs the app
def test_running_the_app_applies_it():
    run_app = (
        "from streamlit.testing.v1 import AppTest; AppTest.from_file('app.py').run(timeout=60)"
    )
    assert mmapped_growth(run_app) == 0


def _rss_bytes() -> int:
    return int(Path("/proc/self/statm").read_text().split()[1]) * 4096


def test_give_back_returns_what_the_kept_heap_holds():
    """Freed heap memory stays in the process (the thresholds above); ``give_back`` hands it
    to the OS, so a server's resident size falls after a computation's arrays are freed."""
    import numpy as np

    allocator.keep_freed_memory()
    blocks = [np.ones(6 * 2**20) for _ in range(6)]  # 6 × 48 MB, below the mmap threshold
    del blocks
    held = _rss_bytes()
    allocator.give_back()
    assert held - _rss_bytes() > 100 * 2**20, (held, _rss_bytes())
