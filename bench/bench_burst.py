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

``--widest`` measures memory instead: for every page, ``MAX_HEAVY`` sessions open it at once,
each at the page's widest setting (the caps of attnviz/limits.py and the page's own) a seed
or a text apart, so that ``MAX_HEAVY`` computations run together on a fresh server. Prints
the server's RSS before and its peak during them, per page (the target: ≤ 1.5 GB):

    python3 -m bench.bench_burst --widest              # every page; or name some
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
from urllib.parse import urlencode

from attnviz.limits import max_d_head
from tests.browser.conftest import ROOT, start_server
from tests.load import stclient
from tests.load.stclient import Session
from ui.compute import MAX_HEAVY

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


def widest_text(k: int, n: int = 2000) -> str:
    """``n`` characters of two-letter words: more tokens than a page takes (it keeps its
    first 512, as the real model's tokenizer does); ``k`` shifts the words."""
    words = ["ab", "cd", "ef", "gh", "ij", "kl", "mn"]
    return " ".join(words[(k + i) % len(words)] for i in range(n // 3 + 1))[:n]


WIDEST = {  # page -> the query of session k at the page's widest setting
    "home": lambda k: {},
    "tour": lambda k: {"stop": "S14", "example": k},
    "classroom": lambda k: {},
    "scoring": lambda k: dict(
        source="random", N=512, M=32, D=1024, score="mlp", hidden=256, seed=k
    ),
    "multihead": lambda k: dict(text=widest_text(k), D=1024, H=32, score="mlp", qk=8, seed=k),
    "multihead_d_head": lambda k: dict(  # D′ at its cap for H = 32 (H·D′ = MAX_HEADS_WIDTH)
        text=widest_text(k), D=1024, H=32, auto="false", d_head=max_d_head(32), score="mlp", seed=k
    ),
    "saturation": lambda k: dict(D=4096, N=128, rows=2000, sq=4, sk=4, seed=k),
    "equivariance": lambda k: dict(
        text=widest_text(k, 400),
        perm="shuffle",
        pseed=k,
        pe="learned",
        pe_mode="concat",
        D=256,
        H=8,
        seed=k,
    ),
    "block_anatomy": lambda k: dict(D=512, H=32, ff=4, seed=k),
    "depth_gradients": lambda k: dict(
        L=24, D=512, seeds=5, shape="true", x=("unit", "sqrt_d")[k % 2], loss="xent"
    ),
    "training_race": lambda k: dict(task="sort", L=12, steps=600, seed=k),  # then Start
    "positional": lambda k: dict(kind="learned", N=256, D=256, d_pos=1024, cosine="true", seed=k),
    "real_model": lambda k: dict(text=widest_text(k), show="model", measure="contributions"),
}
PAGE = {"multihead_d_head": "multihead"}  # a second setting of a page
CLICK = {"training_race": "race_start"}  # the button that starts the page's computation


async def widest_visit(url: str, page: str, query: str, click: str | None) -> float:
    if click and "button" not in stclient.WIDGETS:  # the client reads buttons too (here only)
        stclient.WIDGETS = (*stclient.WIDGETS, "button")
    return await visit(url, page, query, click=click, light=True)


def widest(root: Path, name: str) -> dict:
    """``MAX_HEAVY`` sessions at the widest setting of page ``name`` at once, on a fresh
    server: its RSS before, its peak during them (polled every 50 ms), the slowest session."""
    page = PAGE.get(name, name)
    queries = [urlencode({"lang": "en", **WIDEST[name](k)}) for k in range(MAX_HEAVY)]
    with served(root, page) as (url, pid, _):
        before, peak, done = rss_bytes(pid), [rss_bytes(pid)], threading.Event()

        def poll() -> None:
            while not done.wait(0.05):
                peak.append(rss_bytes(pid))

        watcher = threading.Thread(target=poll)
        watcher.start()
        try:

            async def together() -> list[float]:
                visits = (widest_visit(url, page, q, CLICK.get(name)) for q in queries)
                return list(await asyncio.gather(*visits))

            seconds = asyncio.run(together())
        finally:
            done.set()
            watcher.join()
    return {
        "sessions": MAX_HEAVY,
        "query": queries[0][:160],
        "rss_before_mb": round(before / 2**20),
        "peak_rss_mb": round(max(peak) / 2**20),
        "slowest_s": round(max(seconds), 1),
    }


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100  # utime + stime, in clock ticks of 10 ms


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


async def visit(
    url: str, page: str, query: str, *, click: str | None = None, light: bool = False
) -> float:
    """One session opens ``page?query`` (and presses the button ``click``, if any): the
    seconds of its last run; an exception shown on the page raises."""
    s = Session(url, light=light)
    await s.open()
    try:
        view = await s.run(page, query, timeout=900)
        if click:
            (wid,) = [w for w in view.widgets if w.endswith(click)]
            s.set(wid, "trigger_value", True)
            view = await s.run(page, query, timeout=900)
        if view.exceptions:
            raise RuntimeError(f"{page}?{query[:80]}: {view.exceptions[0][:200]}")
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
    parser.add_argument("--widest", action="store_true", help="every page's peak RSS")
    parser.add_argument("scenarios", nargs="*")
    args = parser.parse_args()
    out = {"root": str(args.root)}
    if args.widest:
        for name in args.scenarios or list(WIDEST):
            out[name] = widest(args.root, name)
            print(json.dumps({name: out[name]}), flush=True)
        return
    args.scenarios = args.scenarios or list(SCENARIOS)
    for name in args.scenarios:
        out[name] = measure(args.root, *SCENARIOS[name], args.sessions)
        print(json.dumps({name: out[name]}), flush=True)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
