"""The class that moves together, for bench/bench_server_cost.py: K sessions open a page and
make the same change within a second (``MAIN``), on one server or through HAProxy in front
of several (``balanced``)."""

from __future__ import annotations

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

from tests.browser.conftest import ROOT, free_port, start_server
from tests.load.school import HAPROXY, HAPROXY_CFG, REPLICAS
from tests.load.stclient import FINISHED_FRAGMENT, FINISHED_OK, Session

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
    if view.exceptions or view.status not in (FINISHED_OK, FINISHED_FRAGMENT, None):
        raise RuntimeError(f"{what}: status {view.status} {view.exceptions[:1]}")
    return view


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


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()


@contextmanager
def balanced(n: int, pages: list[str], pids: list[int] | None = None, tree: Path = ROOT):
    """HAProxy (deploy/haproxy.cfg as shipped) in front of ``n`` server processes; its
    other replicas point at closed ports, and the class starts once HAProxy has marked
    them down. Each process runs torch on its share of the cores (OMP_NUM_THREADS), as
    docs/hosting.md asks of a host: threads × processes = cores. ``pids``: filled with the
    server processes' ids; ``tree``: the checkout they serve."""
    with ExitStack() as stack, tempfile.TemporaryDirectory() as tmp:
        env, urls = {}, []
        for i, name in enumerate(REPLICAS):
            if i < n:
                threads = str(max(1, (os.cpu_count() or 1) // n))
                proc, url = start_server("app.py", cwd=tree, env={"OMP_NUM_THREADS": threads})
                stack.callback(stop, proc)
                urls.append(url)
                if pids is not None:
                    pids.append(proc.pid)
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
        stack.callback(stop, proxy)
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
