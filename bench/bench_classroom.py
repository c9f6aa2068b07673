"""A classroom on one server: K = 40 concurrent sessions (loopback only, bounded).

    python bench/bench_classroom.py [--k 40] [--scenarios 8] [--steps 4] [--pages 2]
                                    [--think 1 3] [--port 8621] [--url http://...]

Each session is a Streamlit websocket client (tests/load/stclient.py) that opens pages
and changes controls like a student: the same protobuf messages as the browser, without
the drawing, which happens on each student's own machine. Latency is the server's side
of an interaction: rerun sent -> script_finished received, every delta read.

Prints p50 / p95 / max interaction latency, errors, leaks (a session whose view ever
differs from a lone replay of its scenario), and the server's RSS (idle, after warm-up,
peak = VmHWM). The reference measured in the same run is the lone replays: every
scenario once, one session at a time; the load figures are also given as ratios to it.
Targets on 2 cores (issue 6): 0 errors, p95 <= 2 s, peak RSS <= 2 GB.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser import conftest as server  # noqa: E402
from tests.load.classroom import app_pages, classroom, scenario  # noqa: E402


def snapshot(live: bool) -> Path:
    """A snapshot of HEAD (``git archive``) to serve, so that edits made in the working
    tree during the run cannot change what is measured; the working tree with ``live``."""
    if live:
        return ROOT
    where = Path(tempfile.mkdtemp(prefix="attnviz-bench-"))
    tar = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(where)], input=tar.stdout, check=True)
    return where


def start_server(port: int, live: bool, opts: list[str]) -> tuple[subprocess.Popen, str, Path]:
    """``streamlit run app.py`` on loopback, from ``snapshot(live)``. The server log goes
    to server.log there."""
    where = snapshot(live)
    log = open(where / "server.log", "w")  # noqa: SIM115
    proc, url = server.start_server(
        port=port, cwd=where, options=tuple(f"--{o}" for o in opts), log=log
    )
    return proc, url, where


def server_errors(where: Path, log: str = "server.log") -> list[str]:
    """The distinct exception lines of the server log (colour codes removed)."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", (where / log).read_text(errors="replace"))
    lines = re.findall(r"^\s*(?:❱.*|\w*(?:Error|Exception): .*)$", text, re.M)
    return list(dict.fromkeys(x.strip() for x in lines))


def rss_mb(pid: int, field: str = "VmRSS") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of the process (all its threads) so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], q: int) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100)[q - 1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--k", type=int, default=40)
    ap.add_argument("--scenarios", type=int, default=8)
    ap.add_argument("--steps", type=int, default=4, help="control changes per page")
    ap.add_argument("--pages", type=int, default=2, help="pages per session")
    ap.add_argument("--think", type=float, nargs=2, default=(1.0, 3.0))
    ap.add_argument(
        "--max-frac",
        type=float,
        default=0.25,
        help="numbers move within this lower fraction of their range",
    )
    ap.add_argument("--port", type=int, default=8621)
    ap.add_argument("--url", help="use a running server (no RSS figures)")
    ap.add_argument("--live", action="store_true", help="serve the working tree, not HEAD")
    ap.add_argument(
        "--opt",
        action="append",
        default=[],
        help="a server option, e.g. --opt runner.postScriptGC=false",
    )
    args = ap.parse_args()

    proc, where = None, None
    if args.url:
        url = args.url
    else:
        proc, url, where = start_server(args.port, args.live, args.opt)
    try:
        pid = proc.pid if proc else None
        idle = rss_mb(pid) if pid else float("nan")
        pages = app_pages()
        # The teacher opens every page once before class (the cold first visit).
        t0 = time.perf_counter()
        asyncio.run(scenario(url, 0, pages, 0, (0, 0), args.max_frac, "en-US", 0))
        cold = time.perf_counter() - t0
        warm = rss_mb(pid) if pid else float("nan")
        cpu0, load0 = (cpu_s(pid) if pid else float("nan")), os.getloadavg()[0]
        res = asyncio.run(
            asyncio.wait_for(
                classroom(
                    url,
                    args.k,
                    args.scenarios,
                    pages,
                    per_session=args.pages,
                    steps=args.steps,
                    think=tuple(args.think),
                    max_frac=args.max_frac,
                ),
                timeout=900,
            )
        )
        cpu = (cpu_s(pid) if pid else float("nan")) - cpu0
        lat, solo = sorted(res.latencies()), sorted(res.solo)
        out = {
            "sessions": args.k,
            "scenarios": args.scenarios,
            "pages": pages,
            "interactions": len(lat),
            "errors": len(res.errors()),
            "leaks": len(res.leaks(args.scenarios)),
            "p50_s": round(pct(lat, 50), 3),
            "p95_s": round(pct(lat, 95), 3),
            "max_s": round(lat[-1], 3) if lat else None,
            "solo_p50_s": round(pct(solo, 50), 3),
            "solo_p95_s": round(pct(solo, 95), 3),
            "p50_vs_solo": round(pct(lat, 50) / pct(solo, 50), 2),
            "p95_vs_solo": round(pct(lat, 95) / pct(solo, 95), 2),
            "first_visit_all_pages_s": round(cold, 2),
            "load_wall_s": round(res.wall, 1),
            "rss_idle_mb": round(idle),
            "rss_after_warmup_mb": round(warm),
            "rss_peak_mb": round(rss_mb(pid, "VmHWM")) if pid else None,
            # Contention-free figures: the server's CPU per interaction (load + replays),
            # and the machine's load average (other work on the same cores skews latency).
            "server_cpu_s_per_interaction": round(cpu / (len(lat) + len(solo)), 3),
            "loadavg_before_after": [round(load0, 1), round(os.getloadavg()[0], 1)],
        }
        print(json.dumps(out, indent=1, ensure_ascii=False))
        by_page: dict[str, list[float]] = {}
        for steps in res.steps.values():
            for st in steps:
                if not st.error:
                    kind = "open" if st.action == "open" else "change"
                    by_page.setdefault(f"{st.page} {kind}", []).append(st.seconds)
        for key, v in sorted(by_page.items()):
            print(
                f"  {key:24s} n={len(v):3d}  p50 {pct(sorted(v), 50):6.3f} s"
                f"  p95 {pct(sorted(v), 95):6.3f} s"
            )
        for e in res.errors()[:10]:
            print("ERROR", e)
        for leak in res.leaks(args.scenarios)[:10]:
            print("LEAK", leak)
        if where and res.errors():
            print("server log:", *server_errors(where)[:12], sep="\n  ")
    finally:
        if proc:
            proc.terminate()
            proc.wait(timeout=30)
        if where and not args.live:
            shutil.rmtree(where, ignore_errors=True)


if __name__ == "__main__":
    main()
