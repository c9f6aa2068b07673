"""Slider change → chart redrawn, in a real server and headless Chromium.

Measures the p50 over ≥ 10 changes of the H slider on the multi-head page at
(N, H) = (32, 8) and (256, 12), and of the only slider of a trivial one-slider app,
in the same run; prints each p50 and the ratio to the trivial app.
Also measured, as floors: the trivial app plus one bare 32 × 32 or 256 × 256 Plotly heat
map (bench/one_heatmap_app.py), i.e. the least any page that redraws such a chart costs.
Targets against those floors: ≤ 2× at (32, 8), ≤ 1.5× at (256, 12).
Up to 64 tokens the enlarged head is a picture of its cells (ui/heatmap.js), so at (32, 8)
the page draws no Plotly chart at all; the floor stays the Plotly heat map it replaced.
Then two changes that rerun only the page's fragment (the maps and what hangs on them), at
(32, 8): the slider of the enlarged head, against the same floors, and a click on a cell of
the enlarged head map until the step-through of that weight is drawn, against the trivial app.

    python3 -m bench.bench_ui
"""

from __future__ import annotations

import statistics
import time
from urllib.parse import urlencode

from playwright.sync_api import sync_playwright

from attnviz.charts.cells import CLICK_MAX_N
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, IDLE, start_server

CHANGES = 12
H_SLIDER = 1  # on the multi-head page: D (a select slider) comes first, then H
HEAD_SLIDER = 4  # then D' (auto off), the W^Q, W^K scale, and the fragment's enlarged head
# ``watch``: a CSS selector, or "key >> selector" for an element inside the shadow root of
# the component with that key (the pictures of ui/mosaic.py and ui/heatmap.js)
READ = """(watch) => {
  const [key, sel] = watch.includes(" >> ") ? watch.split(" >> ") : [null, watch];
  let root = document;
  if (key) { const host = document.querySelector(`.st-key-${key}`);
    const shadow = host && [...host.querySelectorAll("*")].find(n => n.shadowRoot);
    if (!shadow) return ""; root = shadow.shadowRoot; }
  const el = root.querySelector(sel); if (!el) return "";
  if (el.data) return JSON.stringify(el.data.map(t => [t.z, t.source]));
  return el.src || el.innerText; }"""
HEAD_MAP = "head_map >> .heatmap img"  # the enlarged head, a picture up to 64 tokens
CHANGED = f"""([sel, before]) => document.querySelector('{IDLE}') && ({READ})(sel) !== before"""


def p50_of_changes(page, url: str, watch: str, slider: int = 0) -> float:
    """Median ms from a key press on the ``slider``-th slider until ``watch`` shows new
    content."""
    page.goto(url)
    page.wait_for_selector(IDLE, timeout=120_000)
    page.wait_for_function(f"() => ({READ})({watch!r}) !== ''", timeout=120_000)
    slider = page.get_by_role("slider").nth(slider)
    slider.focus()
    page.wait_for_timeout(500)
    times = []
    for i in range(CHANGES):
        before = page.evaluate(READ, watch)
        t0 = time.perf_counter()
        slider.press("ArrowLeft" if i % 2 == 0 else "ArrowRight")
        page.wait_for_function(CHANGED, arg=[watch, before], polling="raf", timeout=60_000)
        times.append((time.perf_counter() - t0) * 1e3)
        page.wait_for_timeout(200)
    return statistics.median(times)


STEPS_DRAWN = """([sel, t]) => document.querySelector(sel) &&
  Array.from(document.querySelectorAll('annotation')).some(a => a.textContent.startsWith(t))"""


def p50_of_clicks(page, url: str, n: int) -> float:
    """Median ms from a click on cell (i, j) of the enlarged head map (``n`` tokens) until
    the page is idle with the formula of s_ij drawn."""
    page.goto(url)
    page.wait_for_selector(IDLE, timeout=120_000)
    area = page.locator(".heatmap .plot")
    area.wait_for(timeout=120_000)
    area.scroll_into_view_if_needed()
    page.wait_for_timeout(1000)
    times = []
    for c in range(CHANGES):
        i, j = 2 + (5 * c) % (n - 2), 1 + (3 * c + 7) % (n - 1)  # a new cell every time
        box = area.bounding_box()
        x, y = box["x"] + (j - 0.5) / n * box["width"], box["y"] + (i - 0.5) / n * box["height"]
        t0 = time.perf_counter()
        page.mouse.click(x, y)
        page.wait_for_function(
            STEPS_DRAWN, arg=[IDLE, f"s_{{{i},{j}}}"], polling="raf", timeout=60_000
        )
        times.append((time.perf_counter() - t0) * 1e3)
        page.wait_for_timeout(300)
    return statistics.median(times)


def main() -> None:
    words = [f"w{i}" for i in range(256)]
    cases = {
        # D' fixed, so that every H the slider reaches is valid as chosen (with D' = D / H,
        # H = 7 would be moved back to 8 and nothing would change)
        "(N, H) = (32, 8)": {
            "text": " ".join(words[:32]),
            "D": "64",
            "H": "8",
            "auto": "false",
            "d_head": "8",
        },
        "(N, H) = (256, 12)": {
            "text": " ".join(words),
            "D": "384",
            "H": "12",
            "auto": "false",
            "d_head": "32",
        },
    }
    app, app_url = start_server("app.py")
    ref, ref_url = start_server("bench/trivial_app.py")
    heat, heat_url = start_server("bench/one_heatmap_app.py")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            trivial = p50_of_changes(page, ref_url, "[data-testid=stMetricValue]")
            print(f"trivial one-slider app: p50 {trivial:7.0f} ms")
            floors = {}
            for n in (32, 256):
                ms = floors[n] = p50_of_changes(page, f"{heat_url}?n={n}", ".js-plotly-plot")
                print(f"+ one {n}² Plotly heat map: p50 {ms:5.0f} ms  ratio {ms / trivial:5.2f}")
            for (name, params), n in zip(cases.items(), (32, 256), strict=True):
                url = f"{app_url}/multihead?{urlencode({'lang': 'en', **params})}"
                watch = HEAD_MAP if n <= CLICK_MAX_N else ".js-plotly-plot"
                ms = p50_of_changes(page, url, watch, slider=H_SLIDER)
                print(
                    f"multi-head page {name}: p50 {ms:7.0f} ms  ratio {ms / trivial:5.2f}"
                    f"  vs one {n}² heat map {ms / floors[n]:5.2f}"
                )
            params = {"lang": "en", **cases["(N, H) = (32, 8)"]}
            url = f"{app_url}/multihead?{urlencode(params | {'head': '4'})}"  # room either side
            ms = p50_of_changes(page, url, HEAD_MAP, slider=HEAD_SLIDER)
            print(
                f"enlarged head slider (a fragment) (32, 8): p50 {ms:7.0f} ms"
                f"  ratio {ms / trivial:5.2f}  vs one 32² heat map {ms / floors[32]:5.2f}"
            )
            ms = p50_of_clicks(page, f"{app_url}/multihead?{urlencode(params)}", 32)
            print(
                f"click a cell → steps drawn (32, 8): p50 {ms:7.0f} ms  ratio {ms / trivial:5.2f}"
                f"  vs one 32² heat map {ms / floors[32]:5.2f}"
            )
            browser.close()
    finally:
        for proc in (app, ref, heat):
            proc.terminate()
            proc.wait(timeout=20)


if __name__ == "__main__":
    main()
