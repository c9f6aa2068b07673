"""The server's CPU per interaction, per page, and a class that moves together.

    python3 -m bench.bench_server_cost [CHECKOUT ...] [--pages P ...] [--k 40] [--changes 8]
                                       [--only cost|class] [--procs 1 2]

Cost: one session opens a page and changes one control at a time, ``--changes`` times (its
choices seeded: every checkout makes the same ones); the figure is the server process's CPU
(utime + stime from /proc, all its threads) per change. "Fresh": the first session, its
settings new to the server; "again": a second session making the same changes, every
computation cached. The floor is a one-slider, one-text app (bench/floor_app.py) served with
the same options in the same run; each page's figure is also given as a multiple of it.

The class: K sessions (tests/load/stclient.py, the browser's protocol; they read only each
run's widgets and exceptions, leaving the cores to the server) open a page, then all make
the same change (``MAIN``) within one second; the latency of each (rerun sent → its last
message) gives p50, p95 and max. "Alone": afterwards, one more session opens the page
and makes that change by itself. ``--procs 1 2``: the class again, on this checkout only,
through HAProxy (deploy/haproxy.cfg as shipped) in front of 1 and then 2 server processes.

Every checkout given (this one first) gets its own server; they take turns page by page, so
that they share the machine's noise. The load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import tempfile
import time
import urllib.request
from contextlib import ExitStack, contextmanager
from pathlib import Path

from bench.bench_classroom import cpu_s, rss_mb
from tests.browser.conftest import ROOT, free_port, start_server
from tests.load.classroom import app_pages
from tests.load.school import HAPROXY, HAPROXY_CFG, REPLICAS
from tests.load.stclient import Session, next_value

FLOOR = ROOT / "bench" / "floor_app.py"
FLOOR_CHANGES = 40  # the floor's rerun costs ~3 ms: more changes than a page's for /proc's 10 ms
# The change the whole class makes, by page: (control's key, its new value); None: the class
# comes to the page together from another one.
MAIN = {
    "home": None,
    "tour": None,
    "scoring": ("D", "512"),
    "multihead": ("D", "256"),
    "saturation": ("D", "512"),
    "equivariance": ("D", "64"),
    "block_anatomy": ("D", "256"),
    "depth_gradients": ("L", 4),  # the default is 6: a setting new to every checkout
    "training_race": ("L", 4),
    "positional": ("D", "128"),
    "real_model": ("text", "everybody in the class types the same new sentence now"),
}


def as_sent(kind: str, proto, value: object) -> tuple[str, object]:
    """``value`` for a widget of ``kind`` as the browser sends it: (state field, value)."""
    if kind == "slider" and proto.options:  # st.select_slider: the option's label
        return "string_array_value", [str(value)]
    if kind == "slider":
        return "double_array_value", [float(value)]
    if kind == "number_input":
        return "double_value", float(value)
    if kind == "checkbox":
        return "bool_value", bool(value)
    return "string_value", str(value)  # text, selectbox, radio


def widget(view, key: str) -> tuple[str, str, object]:
    """(id, kind, proto) of the widget with user key ``key`` in ``view``."""
    for wid, (kind, proto) in view.widgets.items():
        if wid.rsplit("-", 1)[-1] == key:
            return wid, kind, proto
    raise KeyError(f"no control {key!r} on the page")


def pct(values: list[float], q: int) -> float:
    """The ``q``-th percentile of sorted ``values``, within their range (a class of few)."""
    return (
        statistics.quantiles(values, n=100, method="inclusive")[q - 1] if values[1:] else values[0]
    )


def checked(view, what: str):
    if view.exceptions or view.status not in (0, None):
        raise RuntimeError(f"{what}: status {view.status} {view.exceptions[:1]}")
    return view


async def cpu_per_change(url: str, pid: int, page: str, n: int, seed: int) -> float:
    """The server's CPU seconds per change: a session opens ``page`` and makes ``n`` seeded
    changes of its controls, one at a time (the choices depend only on the seed and on the
    controls the page draws)."""
    rng = random.Random(f"{seed}-{page}")
    s = Session(url, light=True)
    await s.open()
    try:
        view = checked(await s.run(page, timeout=600), f"{page} open")
        t0 = cpu_s(pid)
        for k in range(n):
            if not view.widgets:  # a page without controls: its reruns
                view = checked(await s.run(page, timeout=600), f"{page} rerun")
                continue
            wid = rng.choice(sorted(view.widgets, key=lambda w: w.rsplit("-", 1)[-1]))
            kind, proto = view.widgets[wid]
            s.set(wid, *next_value(kind, proto, rng))
            view = checked(await s.run(page, timeout=600), f"{page} change {k}")
        return (cpu_s(pid) - t0) / n
    finally:
        await s.close()


async def opened(url: str, page: str, locale: str = "en-US") -> tuple[Session, object]:
    """A new session with ``page`` open (for a page the class comes to: another page)."""
    s = Session(url, locale=locale, light=True)
    await s.open()
    first = page if MAIN[page] else ("tour" if page == "home" else "home")
    return s, checked(await s.run(first, timeout=600), f"{first} open")


async def move(s: Session, view, page: str) -> float:
    """``s`` makes the class's change on ``page``: the seconds until its run ends."""
    if MAIN[page]:
        key, value = MAIN[page]
        wid, kind, proto = widget(view, key)
        s.set(wid, *as_sent(kind, proto, value))
    return checked(await s.run(page, timeout=600), f"{page} change").seconds


async def class_moves(url: str, page: str, k: int) -> dict:
    """K sessions open ``page``; within one second all make the same change. Then one
    session alone. Latencies in seconds."""
    opened_ = await asyncio.gather(
        *(opened(url, page, ("en-US", "ja-JP")[i % 2]) for i in range(k))
    )
    await asyncio.sleep(1.0)  # the last openings' runs have ended

    async def student(i: int, s: Session, view) -> float:
        await asyncio.sleep(random.Random(i).uniform(0, 1))
        return await move(s, view, page)

    try:
        lat = sorted(await asyncio.gather(*(student(i, *o) for i, o in enumerate(opened_))))
    finally:
        await asyncio.gather(*(s.close() for s, _ in opened_))
    s, view = await opened(url, page)
    try:
        alone = await move(s, view, page)
    finally:
        await s.close()
    return {"p50": pct(lat, 50), "p95": pct(lat, 95), "max": lat[-1], "alone": alone}


async def warm(url: str, pages: list[str]) -> None:
    """A server's first visit of every page (imports, first figures): the teacher's."""
    s = Session(url)
    await s.open()
    try:
        for page in pages:
            await s.run(page, timeout=600)
    finally:
        await s.close()


@contextmanager
def servers(trees: list[Path], pages: list[str]):
    """One fresh server per checkout, each warmed on ``pages``: {tree: (url, pid)}."""
    with ExitStack() as stack:
        out = {}
        for tree in trees:
            proc, url = start_server("app.py", cwd=tree)
            stack.callback(_stop, proc)
            out[tree] = (url, proc.pid)
        for url, _ in out.values():
            asyncio.run(warm(url, pages))
        yield out


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()


def floor_ms(changes: int) -> float:
    """The one-slider app's CPU per change, ms (a server of its own, started and stopped)."""
    proc, url = start_server(str(FLOOR), cwd=ROOT)
    try:
        asyncio.run(cpu_per_change(url, proc.pid, "", 4, 0))  # its first runs: imports
        return 1e3 * asyncio.run(cpu_per_change(url, proc.pid, "", changes, 1))
    finally:
        _stop(proc)


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def cost_table(trees: list[Path], pages: list[str], changes: int) -> None:
    floor = floor_ms(FLOOR_CHANGES)
    print(f"== server CPU per change, ms ({changes} changes a page; {load()})", flush=True)
    print(f"floor (bench/floor_app.py): {floor:.1f} ms")
    rows: dict[Path, dict] = {tree: {} for tree in trees}
    with servers(trees, pages) as running:
        for page in pages:
            for tree in trees:
                url, pid = running[tree]
                fresh = asyncio.run(cpu_per_change(url, pid, page, changes, 0))
                again = asyncio.run(cpu_per_change(url, pid, page, changes, 0))
                rows[tree][page] = (1e3 * fresh, 1e3 * again)
                print(
                    f"  {tree.name:>10s} {page:16s} fresh {1e3 * fresh:6.0f}"
                    f" ({1e3 * fresh / floor:4.1f}x)  again {1e3 * again:6.0f}"
                    f" ({1e3 * again / floor:4.1f}x)",
                    flush=True,
                )
    floor = (floor + floor_ms(FLOOR_CHANGES)) / 2  # before and after the pages
    print(f"floor, mean of before and after: {floor:.1f} ms; {load()}")
    for tree in trees:
        fresh = [f / floor for f, _ in rows[tree].values()]
        again = [a / floor for _, a in rows[tree].values()]
        print(
            f"{tree}: x floor: fresh median {statistics.median(fresh):.1f} worst {max(fresh):.1f};"
            f" again median {statistics.median(again):.1f} worst {max(again):.1f}"
        )


def class_table(trees: list[Path], pages: list[str], k: int) -> None:
    print(f"== the class moving together: K = {k}, seconds ({load()})", flush=True)
    with servers(trees, pages) as running:
        for page in pages:
            for tree in trees:
                r = asyncio.run(class_moves(running[tree][0], page, k))
                print(
                    f"  {tree.name:>10s} {page:16s} p50 {r['p50']:5.2f}  p95 {r['p95']:5.2f}"
                    f"  max {r['max']:5.2f}  alone {r['alone']:5.2f}",
                    flush=True,
                )
        for tree in trees:
            print(f"{tree}: peak RSS {rss_mb(running[tree][1], 'VmHWM'):.0f} MB; {load()}")


@contextmanager
def balanced(n: int, pages: list[str]):
    """HAProxy (deploy/haproxy.cfg as shipped) in front of ``n`` server processes; its
    other replicas point at closed ports, and the class starts once HAProxy has marked
    them down. Each process runs torch on its share of the cores (OMP_NUM_THREADS), as
    docs/hosting.md asks of a host: threads × processes = cores."""
    with ExitStack() as stack, tempfile.TemporaryDirectory() as tmp:
        env, urls = {}, []
        for i, name in enumerate(REPLICAS):
            if i < n:
                threads = str(max(1, (os.cpu_count() or 1) // n))
                proc, url = start_server("app.py", cwd=ROOT, env={"OMP_NUM_THREADS": threads})
                stack.callback(_stop, proc)
                urls.append(url)
                where = url.split("://", 1)[1]
            else:
                where = f"127.0.0.1:{free_port()}"  # nobody listens: down
            env[f"ATTNVIZ_REPLICA_{name[1:]}"] = where
        port, stats = free_port(), free_port()
        env |= {"ATTNVIZ_BIND": f"127.0.0.1:{port}", "ATTNVIZ_STATS": f"127.0.0.1:{stats}"}
        proxy = subprocess.Popen(
            [HAPROXY, "-db", "-f", str(HAPROXY_CFG)],
            env={**os.environ, **env},
            stdout=open(Path(tmp) / "haproxy.log", "w"),  # noqa: SIM115
            stderr=subprocess.STDOUT,
        )
        stack.callback(_stop, proxy)
        for url in urls:
            asyncio.run(warm(url, pages))
        deadline = time.monotonic() + 60
        while _up(f"http://127.0.0.1:{stats}") != n:
            if time.monotonic() > deadline:
                raise RuntimeError("HAProxy did not mark the missing replicas down")
            time.sleep(0.5)
        yield f"http://127.0.0.1:{port}"


def _up(status_url: str) -> int:
    """How many replicas HAProxy holds up, or -1 while one is still being checked."""
    try:
        with urllib.request.urlopen(f"{status_url}/;csv", timeout=10) as r:
            rows = r.read().decode().splitlines()
    except OSError:
        return -1
    states = [row.split(",")[17] for row in rows if row.split(",")[1] in REPLICAS]
    if len(states) != len(REPLICAS) or any(s not in ("UP", "DOWN") for s in states):
        return -1
    return states.count("UP")


def procs_table(counts: list[int], pages: list[str], k: int) -> None:
    """The class through HAProxy in front of each count of processes, all started at once
    and taking turns page by page (the machine's noise shared, as the checkouts')."""
    print(f"== the class through HAProxy, 1 vs more processes: K = {k} ({load()})", flush=True)
    with ExitStack() as stack:
        urls = {n: stack.enter_context(balanced(n, app_pages())) for n in counts}
        for page in pages:
            for n, url in urls.items():
                r = asyncio.run(class_moves(url, page, k))
                print(
                    f"  {n} process(es) {page:16s} p50 {r['p50']:5.2f}  p95 {r['p95']:5.2f}"
                    f"  max {r['max']:5.2f}  alone {r['alone']:5.2f}",
                    flush=True,
                )
    print(load())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("checkouts", nargs="*", type=Path, help="other checkouts to measure beside")
    ap.add_argument("--pages", nargs="+", choices=list(MAIN), default=None)
    ap.add_argument("--k", type=int, default=40, help="sessions of the class")
    ap.add_argument("--changes", type=int, default=8, help="changes a page for the cost")
    ap.add_argument("--only", choices=("cost", "class"), help="one of the two tables")
    ap.add_argument("--procs", type=int, nargs="*", default=[], help="e.g. 1 2: via HAProxy")
    args = ap.parse_args()
    trees = [ROOT, *(p.resolve() for p in args.checkouts)]
    pages = args.pages or [p for p in app_pages() if p in MAIN]
    if args.only != "class":
        cost_table(trees, pages, args.changes)
    if args.only != "cost":
        class_table(trees, pages, args.k)
    if args.procs:
        procs_table(args.procs, pages, args.k)


if __name__ == "__main__":
    main()
