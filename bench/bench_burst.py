"""A burst of cold requests: K sessions ask one server for the same uncached heavy setting.

The heavy settings: the gradients-by-depth page at its widest D, and the real model on a
new long sentence. Prints JSON per scenario: the sessions' p50 / p95 / max latency, the
server's CPU seconds for the burst against one lone request of the same setting on a
server of its own (nothing the lone run cached can serve the burst), how many computations
the server's log reports for the burst (``ui.compute`` logs each; older trees log none), and
the server's peak RSS during the burst.
Run it against this tree and against an older checkout to compare before/after:

    python3 -m bench.bench_burst                       # this tree, K = 40
    git worktree add /tmp/before <commit> && python3 -m bench.bench_burst --root /tmp/before
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.browser.conftest import ROOT, start_server
from tests.load.stclient import Session

WORDS = [
    "the",
    "quick",
    "brown",
    "fox",
    "jumps",
    "over",
    "the",
    "lazy",
    "dog",
    "while",
    "a",
    "careful",
    "student",
    "reads",
]


def sentence(seed: int, n: int = 300) -> str:
    """A long sentence that no earlier request asked for (``n`` words)."""
    return " ".join(WORDS[(seed * 7 + 3 * k) % len(WORDS)] for k in range(n))


SCENARIOS = {  # name -> (page, query), asked once alone, then by every session at once
    "depth_widest_D": ("depth_gradients", "D=512&L=24&seeds=1"),
    "real_model_new_text": ("real_model", f"text={sentence(1).replace(' ', '+')}"),
}


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100  # utime + stime, in clock ticks of 10 ms


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


async def visit(url: str, page: str, query: str) -> float:
    s = Session(url)
    await s.open()
    try:
        view = await s.run(page, query, timeout=900)
        if view.exceptions:
            raise RuntimeError(f"{page}?{query}: {view.exceptions[0][:200]}")
        return view.seconds
    finally:
        await s.close()


async def burst(url: str, page: str, query: str, k: int) -> list[float]:
    return list(await asyncio.gather(*(visit(url, page, query) for _ in range(k))))


@contextmanager
def served(root: Path, page: str) -> Iterator[tuple[str, int, Callable[[], Counter]]]:
    """A fresh server on ``root``, its imports and the page's default already run; also a
    function that counts the computations its log has reported so far, per lesson function
    (ui.compute writes one line each; a tree without that line counts none)."""
    with tempfile.TemporaryDirectory() as tmp, open(Path(tmp) / "log", "ab") as log:
        proc, url = start_server("app.py", cwd=root, log=log)  # appends, whatever we read
        try:
            asyncio.run(visit(url, page, "lang=en"))

            def computed() -> Counter:
                text = (Path(tmp) / "log").read_text(encoding="utf-8", errors="replace")
                return Counter(re.findall(r"computed (\S+) in ", text))

            yield url, proc.pid, computed
        finally:
            proc.terminate()
            proc.wait(timeout=30)


def measure(root: Path, page: str, query: str, k: int) -> dict:
    with served(root, page) as (url, pid, computed):
        c0 = cpu_seconds(pid)
        lone_s = asyncio.run(visit(url, page, f"lang=en&{query}"))
        lone_cpu = cpu_seconds(pid) - c0
    with served(root, page) as (url, pid, computed):
        n0, peak, done = computed(), [rss_bytes(pid)], threading.Event()

        def poll() -> None:
            while not done.wait(0.05):
                peak.append(rss_bytes(pid))

        watcher = threading.Thread(target=poll)
        watcher.start()
        c0, t0 = cpu_seconds(pid), time.perf_counter()
        try:
            latencies = sorted(asyncio.run(burst(url, page, f"lang=en&{query}", k)))
        finally:
            done.set()
            watcher.join()
        burst_cpu, wall = cpu_seconds(pid) - c0, time.perf_counter() - t0
        time.sleep(1)  # the log's last lines
        computations = dict(computed() - n0)
    return {
        "sessions": k,
        "lone_s": round(lone_s, 2),
        "wall_s": round(wall, 2),
        "p50_s": round(statistics.median(latencies), 2),
        "p95_s": round(latencies[int(0.95 * (k - 1))], 2),
        "max_s": round(latencies[-1], 2),
        "lone_cpu_s": round(lone_cpu, 2),
        "burst_cpu_s": round(burst_cpu, 2),
        "computations_logged": computations,
        "peak_rss_mb": round(max(peak) / 2**20),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to serve")
    parser.add_argument("--sessions", type=int, default=40)
    parser.add_argument("scenarios", nargs="*", default=list(SCENARIOS))
    args = parser.parse_args()
    out = {"root": str(args.root)}
    for name in args.scenarios:
        out[name] = measure(args.root, *SCENARIOS[name], args.sessions)
        print(json.dumps({name: out[name]}), flush=True)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
