"""A click on a cell until its steps are drawn, in this checkout and others at once.

Measures the multi-head page at (N, H) = (32, 8), as bench_ui's click does, in each checkout
given (each its own server; this one first), round after round, so that every checkout
shares the machine's noise: on 2 cores a click's p50 moves by more between two runs of one
checkout than most changes move it. Per click: the wall time until the formula of s_ij is
drawn and the page idle, and the renderer's own work for it (Chromium's task, script, layout
and style time, CDP Performance.getMetrics, read 150 ms after). Prints the medians over every
round's clicks but the first two of each (a new page's first clicks pay for loading).

    python3 -m bench.bench_click /path/to/other/checkout [...]
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path
from urllib.parse import urlencode

from playwright.sync_api import sync_playwright

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, ROOT, start_server

from .bench_ui import click_cell, open_map

ROUNDS, CLICKS, N = 4, 10, 32
METRICS = {
    "task": "TaskDuration",
    "script": "ScriptDuration",
    "layout": "LayoutDuration",
    "style": "RecalcStyleDuration",
}
QUERY = {"lang": "en", "text": " ".join(f"w{i}" for i in range(N)), "D": "64", "H": "8"}
QUERY |= {"auto": "false", "d_head": "8"}


def clicks(page, cdp, url: str, round_: int) -> list[list[float]]:
    """One round on one checkout: per click after the first two, [wall, task, script, layout,
    style] in ms. Each round walks the cells from another start."""

    def metrics() -> list[float]:
        shown = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
        return [shown[name] * 1e3 for name in METRICS.values()]

    area = open_map(page, f"{url}/multihead?{urlencode(QUERY)}")
    rows = []
    for c in range(CLICKS):
        before = metrics()
        wall = click_cell(page, area, N, c, start=round_)
        page.wait_for_timeout(150)
        if c >= 2:
            rows.append([wall] + [b - a for a, b in zip(before, metrics(), strict=True)])
        page.wait_for_timeout(150)
    return rows


def main() -> None:
    checkouts = [ROOT, *(Path(p).resolve() for p in sys.argv[1:])]
    servers = {tree: start_server("app.py", cwd=tree) for tree in checkouts}
    rows: dict[Path, list] = {tree: [] for tree in checkouts}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            cdp = page.context.new_cdp_session(page)
            cdp.send("Performance.enable")
            for r in range(ROUNDS):
                print(f"== round {r + 1} of {ROUNDS}", flush=True)
                for tree in checkouts:
                    rows[tree] += clicks(page, cdp, servers[tree][1], r)
            browser.close()
    finally:
        for proc, _ in servers.values():
            proc.terminate()
            proc.wait(timeout=20)
    print(f"== medians of {ROUNDS * (CLICKS - 2)} clicks a checkout, ms")
    for tree in checkouts:
        wall, *work = (statistics.median(column) for column in zip(*rows[tree], strict=True))
        spent = "  ".join(f"{name} {ms:4.0f}" for name, ms in zip(METRICS, work, strict=True))
        print(f"{tree}: click → steps drawn {wall:4.0f}  renderer: {spent}")


if __name__ == "__main__":
    main()
