"""A real ``streamlit run`` server and Debian's Chromium, driven by Playwright.

Screenshots of failures land in ``artifacts/`` (ignored by git).
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
CHROMIUM = os.environ.get("ATTNVIZ_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

# Added to every page before its scripts run (watch_runs): window.__runs records, by a
# sequence number, the last input that may ask for a run (a press of a key or a pointer, or
# Back/Forward), the last rerun request sent (BackMsg.rerun_script, field 11), the last run
# begun (ForwardMsg.new_session, field 4) and finished (script_finished, 6; a run stopped
# early for a rerun, status 2, does not count), and the last time the app showed that it is
# not running (its data-test-script-state). A fragment's timed poll (a request with
# ClientState.is_auto_rerun, field 6) and its run are left out: a student's screen polls in
# one that may wait 15 s, so that "not running" is rare there.
WATCH_RUNS = """(() => { if (window.__runs) return;
  const runs = window.__runs = {seq: 0, asked: 0, sent: 0, began: 0, ended: 0, shown: 0};
  const mark = (what) => { runs[what] = ++runs.seq; };
  let polling = false, running = 0;  // the next run is a poll; the run going (0: a poll)
  const asked = (e) => { if (e.isTrusted) mark('asked'); };
  for (const type of ['pointerdown', 'keydown', 'popstate']) addEventListener(type, asked, true);
  const varint = (b, i) => { let v = 0, s = 0, c;
    do { c = b[i++]; v += (c & 127) * 2 ** s; s += 7; } while (c & 128); return [v, i]; };
  const fields = function* (b) { let i = 0, tag, n;
    while (i < b.length) { [tag, i] = varint(b, i); const w = tag & 7;
      yield [Math.floor(tag / 8), b, i];
      if (w === 0) [, i] = varint(b, i); else if (w === 2) { [n, i] = varint(b, i); i += n; }
      else if (w === 5) i += 4; else if (w === 1) i += 8; else return; } };
  const bytes = (d) => d instanceof ArrayBuffer ? new Uint8Array(d)
    : ArrayBuffer.isView(d) ? new Uint8Array(d.buffer, d.byteOffset, d.byteLength) : null;
  const heard = (event) => { const b = bytes(event.data); if (!b) return;
    for (const [field, , i] of fields(b)) {
      if (field === 4) running = polling ? 0 : ++runs.seq;
      if (field === 6 && varint(b, i)[0] !== 2 && running) {
        runs.began = running; running = 0; mark('ended'); } } };
  new MutationObserver((changes) => {
    if (changes.some((c) => c.target.dataset.testScriptState === 'notRunning')) mark('shown');
  }).observe(document, {subtree: true, attributes: true,
    attributeFilter: ['data-test-script-state']});
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (!this.__heard) { this.__heard = true; this.addEventListener('message', heard); }
    const b = bytes(data);
    if (b) for (const [field, , i] of fields(b)) if (field === 11) {
      const [n, at] = varint(b, i), state = b.subarray(at, at + n);
      polling = [...fields(state)].some(([f, , k]) => f === 6 && varint(state, k)[0] === 1);
      if (!polling) mark('sent'); }
    return send.call(this, data);
  };
})()"""

# The run the last input asked for (or the page's first run) has finished: its request
# went out, a full run began after it and finished, and the app has shown that it is not
# running since (or shows it now: it may not have shown "running" for a quick run). A
# fragment's poll that starts after does not hold the wait up.
RUN_DONE = """() => { const r = window.__runs;
  if (!r) throw new Error('wait_idle: the page has no run watcher (conftest.watch_runs)');
  const app = document.querySelector('[data-testid=stApp]');
  return r.sent > r.asked && r.began > r.sent && r.ended > r.began
    && (r.shown > r.ended || app?.dataset.testScriptState === 'notRunning'); }"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(
    script: str = "app.py",
    port: int | None = None,
    env: dict | None = None,
    *,
    cwd: Path = ROOT,
    options: tuple[str, ...] = (),
    log=subprocess.DEVNULL,
) -> tuple[subprocess.Popen, str]:
    """Start ``streamlit run script`` in ``cwd`` on loopback and wait until it is healthy.

    ``options`` are extra ``--section.option=value`` flags; output goes to ``log``.
    """
    port = port or free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            script,
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--server.headless",
            "true",
            *options,
        ],
        cwd=cwd,
        stdout=log,
        stderr=subprocess.STDOUT if log is not subprocess.DEVNULL else subprocess.DEVNULL,
        env={**os.environ, **(env or {})},
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return proc, url
        except OSError:
            time.sleep(0.3)  # a health-check poll of a server starting: no page to watch yet
    proc.kill()
    raise RuntimeError("streamlit server did not become healthy within 60 s")


@pytest.fixture(scope="session")
def server():
    proc, url = start_server()
    yield url
    proc.terminate()
    proc.wait(timeout=20)


@pytest.fixture(scope="module")
def browser():
    """One Chromium per test module: Playwright's sync API holds an event loop while it
    runs, so it must be closed before other modules (AppTest, the load client) run theirs."""
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser, request):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="en-US")
    pg = ctx.new_page()
    watch_runs(pg)
    pg.errors = []
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    yield pg
    if request.node.rep_call.failed if hasattr(request.node, "rep_call") else False:
        ARTIFACTS.mkdir(exist_ok=True)
        pg.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    ctx.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    setattr(item, f"rep_{rep.when}", rep)


def watch_runs(page: Page) -> None:
    """Record the page's inputs and script runs (WATCH_RUNS) from its next document on."""
    if not getattr(page, "runs_watched", False):
        page.add_init_script(WATCH_RUNS)
        page.runs_watched = True


def wait_idle(page: Page, timeout: float = 60_000) -> None:
    """Wait until the run that the last input (a key, a pointer, Back or Forward) asked for
    has finished, or the page's first run when there was no input.

    The input must ask for a run (a widget's change, a component's pick, a link): one that
    asks for none leaves this waiting until ``timeout``.
    """
    page.wait_for_function(RUN_DONE, timeout=timeout)


# every Plotly chart on the page has drawn its figure (Plotly draws after the run)
CHARTS_DRAWN = """() => [...document.querySelectorAll('.js-plotly-plot')]
    .every(gd => gd._fullLayout
      && gd.querySelector('.main-svg')?.getBoundingClientRect().width > 0)"""


def charts_drawn(page: Page, timeout: float = 30_000) -> None:
    """Wait until every Plotly chart on the page has drawn its figure (CHARTS_DRAWN)."""
    page.wait_for_function(CHARTS_DRAWN, timeout=timeout)


def labels_fitted(heatmap: Locator) -> None:
    """Wait until a map's token labels have the size ui/heatmap.js fits them to, which it
    sets once the map is laid out (a ResizeObserver's first call)."""
    for axis in ("row-labels", "col-labels"):
        expect(heatmap.locator(f".{axis}")).to_have_attribute("style", re.compile("font-size"))


def open_app(page: Page, url: str, chart_timeout: float = 90_000) -> None:
    """Open ``url`` and wait until the page has drawn its title and its run has finished.

    The app element reports "not running" before the first run has even started (a fresh
    server takes seconds to import torch), so the title is awaited first.
    """
    watch_runs(page)
    page.goto(url)
    page.wait_for_selector("[data-testid=stMain] h1", timeout=chart_timeout)
    wait_idle(page, timeout=chart_timeout)


def slider(page: Page, label: str):
    """The thumb of the slider labelled ``label``.

    Streamlit draws its sliders up to a second after the run has finished (their code is
    loaded lazily); a test that took "the first slider" once moved the page's last one.
    """
    return page.locator("[data-testid=stSlider]").filter(has_text=label).get_by_role("slider")


def assert_clean(page: Page) -> None:
    """No Streamlit exception element and no JavaScript page error."""
    assert page.locator("[data-testid=stException]").count() == 0, "exception shown on page"
    assert not page.errors, f"page errors: {page.errors}"


# chart titles (and subtitles) and notes, panel titles among them, that run past their
# chart's edges: Plotly does not wrap them
CUT_TITLES = """() => Array.from(document.querySelectorAll('.js-plotly-plot .main-svg'))
    .flatMap(svg => { const box = svg.getBoundingClientRect();
      return Array.from(svg.querySelectorAll('.gtitle, .gtitle-subtitle, .annotation-text'))
        .filter(t => { const r = t.getBoundingClientRect();
          return r.width > 0 && (r.left < box.left - 1 || r.right > box.right + 1
            || r.top < box.top - 1); })
        .map(t => t.textContent.slice(0, 50)); })"""
