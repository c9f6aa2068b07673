"""The server's CPU per interaction, per page, and a class that moves together.

    python3 -m bench.bench_server_cost [CHECKOUT ...] [--pages P ...] [--k 40] [--changes 8]
                                       [--again 3] [--only cost|class|none] [--procs 1 2]
                                       [--ks 40 80 120]
                                       [--votes 120] [--idle 30] [--class-pages P ...]

Cost: one session opens a page and changes one control at a time, ``--changes`` times (its
choices seeded: every checkout makes the same ones); the figure is the server process's CPU
(utime + stime from /proc, all its threads) per change. "Fresh": the first session, its
settings new to the server; "again": ``--again`` more sessions, each making the same
changes, every computation cached (their CPU over all their changes: /proc counts in 10 ms
ticks, and one pass of 8 changes moved a page's figure by ±1.3 ms). The floor is a
one-slider, one-text app (bench/floor_app.py) served with the same options in the same run;
each page's figure is also given as a multiple of it. The client does what the browser
does: it names the large messages it holds, and reruns only the fragment of a control
inside one (tests/load/stclient.py).

The class: K sessions (tests/load/stclient.py, the browser's protocol; they read only each
run's widgets and exceptions, leaving the cores to the server) open a page, then all make
the same change (``MAIN``) within one second; the latency of each (rerun sent → its last
message) gives p50, p95 and max. "Alone": afterwards, one more session opens the page
and makes that change by itself. ``--procs 1 2``: the class again, on this checkout only,
through HAProxy (deploy/haproxy.cfg as shipped) in front of 1 and then 2 server processes,
for each class size of ``--ks``, with the CPU the servers and the clients took beside it.
``--votes K``: a class of K on the tour through HAProxy over two replicas: idle on a stop,
polling (the idle cost per 100 students); everyone answers; every screen follows the
teacher's phase, then the teacher to the next stop (tests/load/votes.py).

Every checkout given (this one first) gets its own server; they take turns page by page, so
that they share the machine's noise. The load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import time
from contextlib import ExitStack, contextmanager
from pathlib import Path

from bench.bench_classroom import cpu_s, rss_mb
from bench.moving_class import MAIN, balanced, checked, class_moves, stop, warm
from tests.browser.conftest import ROOT, start_server
from tests.load.classroom import app_pages
from tests.load.stclient import Session, next_value

FLOOR = ROOT / "bench" / "floor_app.py"
FLOOR_CHANGES = 40  # the floor's rerun costs ~3 ms: more changes than a page's for /proc's 10 ms


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


@contextmanager
def servers(trees: list[Path], pages: list[str]):
    """One fresh server per checkout, each warmed on ``pages``: {tree: (url, pid)}."""
    with ExitStack() as stack:
        out = {}
        for tree in trees:
            proc, url = start_server("app.py", cwd=tree)
            stack.callback(stop, proc)
            out[tree] = (url, proc.pid)
        for url, _ in out.values():
            asyncio.run(warm(url, pages))
        yield out


def floor_ms(changes: int) -> float:
    """The one-slider app's CPU per change, ms (a server of its own, started and stopped)."""
    proc, url = start_server(str(FLOOR), cwd=ROOT)
    try:
        asyncio.run(cpu_per_change(url, proc.pid, "", 4, 0))  # its first runs: imports
        return 1e3 * asyncio.run(cpu_per_change(url, proc.pid, "", changes, 1))
    finally:
        stop(proc)


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def cost_table(trees: list[Path], pages: list[str], changes: int, again_n: int = 3) -> None:
    floor = floor_ms(FLOOR_CHANGES)
    print(
        f"== server CPU per change, ms ({changes} changes a page, again {again_n} times; {load()})",
        flush=True,
    )
    print(f"floor (bench/floor_app.py): {floor:.1f} ms")
    rows: dict[Path, dict] = {tree: {} for tree in trees}
    with servers(trees, pages) as running:
        for page in pages:
            for tree in trees:
                url, pid = running[tree]
                fresh = asyncio.run(cpu_per_change(url, pid, page, changes, 0))
                passes = [
                    asyncio.run(cpu_per_change(url, pid, page, changes, 0)) for _ in range(again_n)
                ]
                again = statistics.fmean(passes)
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


def procs_table(counts: list[int], pages: list[str], ks: list[int], trees: list[Path]) -> None:
    """The class through HAProxy in front of each count of processes, all started at once
    and taking turns page by page (the machine's noise shared, as the checkouts'), for each
    class size, each checkout of ``trees`` served alike in turn. Beside each row: the CPU the
    server processes and this client (every student's session) took over it, in seconds,
    and the load average after it."""
    print(f"== the class through HAProxy, 1 vs more processes: K = {ks} ({load()})", flush=True)
    with ExitStack() as stack:
        pids = {(t, n): [] for t in trees for n in counts}
        urls = {
            (t, n): stack.enter_context(balanced(n, app_pages(), pids[t, n], t))
            for t in trees
            for n in counts
        }
        for page in pages:
            for k in ks:
                for (t, n), url in urls.items():
                    server0 = sum(cpu_s(p) for p in pids[t, n])
                    client0 = time.process_time()
                    r = asyncio.run(class_moves(url, page, k))
                    server = sum(cpu_s(p) for p in pids[t, n]) - server0
                    client = time.process_time() - client0
                    print(
                        f"  {t.name:>8s} K {k:3d} {n} process(es) {page:16s} p50 {r['p50']:5.2f}"
                        f"  p95 {r['p95']:5.2f}  max {r['max']:5.2f}  alone {r['alone']:5.2f}"
                        f"  cpu: server {server:5.1f} s, clients {client:4.1f} s;"
                        f" load {os.getloadavg()[0]:.2f}",
                        flush=True,
                    )
    print(load())


def votes_table(k: int, idle_s: float) -> None:
    """A class of ``k`` on the tour through HAProxy over two replicas sharing one SQLite file
    (tests/load/votes.py, bench_votes without the kill): idle on a stop, polling (the cost
    per 100 students); everyone answers; every screen follows the teacher's phase and then
    the teacher to the next stop."""
    import json
    import tempfile

    from tests.load.votes import lesson, open_pair

    print(f"== the class votes and follows the teacher: K = {k} ({load()})", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/classes.sqlite3"
        os.environ["ATTNVIZ_STORE"] = url
        campus = open_pair(Path(tmp), url)
        try:
            client0 = time.process_time()
            res = asyncio.run(lesson(campus, k, 4.0, kill=False, idle_s=idle_s))
            keep = [
                "students",
                "confirmed",
                "voted_within_s",
                "p95_vote_to_confirmed_s",
                "last_vote_to_teacher_count_s",
                "lost_confirmed_votes",
                "errors",
                "follow_p95_s",
                "follow_max_s",
                "next_stop_p95_s",
                "next_stop_max_s",
            ]
            out = {f: v for f, v in res.summary().items() if f in keep or f.startswith("idle")}
            out["client_cpu_s"] = round(time.process_time() - client0, 1)
            print(json.dumps(out, indent=1), flush=True)
        finally:
            campus.close()
    print(load())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("checkouts", nargs="*", type=Path, help="other checkouts to measure beside")
    ap.add_argument("--pages", nargs="+", choices=list(MAIN), default=None)
    ap.add_argument("--class-pages", nargs="+", choices=list(MAIN), help="via HAProxy (--pages)")
    ap.add_argument("--k", type=int, default=40, help="sessions of the class")
    ap.add_argument("--changes", type=int, default=8, help="changes a page for the cost")
    ap.add_argument("--again", type=int, default=3, help="passes of the same changes, cached")
    ap.add_argument(
        "--only", choices=("cost", "class", "none"), help="one of the two tables, or neither"
    )
    ap.add_argument("--procs", type=int, nargs="*", default=[], help="e.g. 1 2: via HAProxy")
    ap.add_argument("--ks", type=int, nargs="*", help="class sizes via HAProxy (default: --k)")
    ap.add_argument("--votes", type=int, default=0, help="K for the class voting, e.g. 120")
    ap.add_argument("--idle", type=float, default=30.0, help="seconds the voting class idles")
    args = ap.parse_args()
    trees = [ROOT, *(p.resolve() for p in args.checkouts)]
    pages = args.pages or [p for p in app_pages() if p in MAIN]
    if args.only in (None, "cost"):
        cost_table(trees, pages, args.changes, args.again)
    if args.only in (None, "class"):
        class_table(trees, pages, args.k)
    if args.procs:
        procs_table(args.procs, args.class_pages or pages, args.ks or [args.k], trees)
    if args.votes:
        votes_table(args.votes, args.idle)


if __name__ == "__main__":
    main()
