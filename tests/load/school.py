"""A school: K sessions through HAProxy (deploy/haproxy.cfg, as shipped) over 3 replicas,
one of which is killed mid-run. Used by tests/load/test_school.py (small K) and
bench/bench_school.py (K = 60).

Each session is a classroom visitor (tests/load/classroom.py: scenario ``i % M``, its
choices seeded) that keeps HAProxy's cookie, and whose websocket drops once between
pages and reconnects to its server-side session, as a browser does after a network blip:
on the replica that holds the session it gets the same session back, elsewhere a new one,
so the session ids the server reports show where every run went.

Like the browser, a visitor sends the URL's query string (as the page last wrote it)
with every rerun: the server only reads it for controls that the session does not hold.

When its replica dies, a session does what a student does: reload. The browser keeps its
cookies (naming the dead replica), so HAProxy must send it elsewhere; it reopens its
page with the URL it had (every control is in the query string), checks that it sees
what it saw before, and goes on, redoing the change that was lost.
"""

from __future__ import annotations

import asyncio
import csv
import http.client
import io
import itertools
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from websockets.exceptions import ConnectionClosed, InvalidHandshake

from tests.browser.conftest import free_port, start_server
from tests.load.classroom import Step, plan
from tests.load.stclient import Session, View, next_value

ROOT = Path(__file__).resolve().parents[2]
HAPROXY_CFG = ROOT / "deploy" / "haproxy.cfg"
HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"  # Debian's package
REPLICAS = ("r1", "r2", "r3")  # the server names (and cookie values) in haproxy.cfg
COOKIE = "SERVERID"
# Each replica on one torch thread, as the image runs it (Dockerfile, docs/hosting.md: cores
# / processes threads each). On two, a figure's last bits followed the thread count, which a
# lesson that trains lowers to one for the whole process while it runs
# (attnviz/lessons/threads.py): the same URL drew another figure while a race was training.
ONE_THREAD = {"OMP_NUM_THREADS": "1"}
# What a replica dying under a request looks like: a closed websocket, a refused or cut
# connection, a page cut off in the middle.
LOST = (ConnectionClosed, InvalidHandshake, OSError, http.client.HTTPException)


@dataclass
class Campus:
    """HAProxy in front of the replicas, all on loopback."""

    url: str  # HAProxy: where students connect
    status_url: str  # HAProxy's status page
    replicas: dict  # name -> (process, direct url, log path)
    haproxy: subprocess.Popen
    log: Path  # HAProxy's log
    peak_rss_mb: dict = field(default_factory=dict)  # of a replica, when it was killed

    def kill(self, name: str) -> None:
        """The replica dies (SIGKILL: no goodbye to its websockets)."""
        proc = self.replicas[name][0]
        self.peak_rss_mb[name] = peak_rss_mb(proc.pid)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)

    def status(self) -> dict[str, dict]:
        """HAProxy's view of each replica: ``status`` (UP/DOWN), ``stot`` (sessions)..."""
        with urllib.request.urlopen(f"{self.status_url}/;csv", timeout=10) as r:
            text = r.read().decode().lstrip("# ")
        rows = csv.DictReader(io.StringIO(text))
        return {row["svname"]: row for row in rows if row["svname"] in self.replicas}

    def server_errors(self) -> list[str]:
        """The distinct exception lines of the replicas' logs."""
        lines = []
        for _, _, log in self.replicas.values():
            text = re.sub(r"\x1b\[[0-9;]*m", "", log.read_text(errors="replace"))
            lines += re.findall(r"^\s*\w*(?:Error|Exception): .*$", text, re.M)
        return list(dict.fromkeys(x.strip() for x in lines))

    def close(self) -> None:
        for proc, _, _ in self.replicas.values():
            if proc.poll() is None:
                proc.terminate()
        self.haproxy.terminate()
        for proc in [self.haproxy, *(p for p, _, _ in self.replicas.values())]:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()


def peak_rss_mb(pid: int) -> float:
    """The peak resident memory of a live process (VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def open_campus(
    log_dir: Path, cwd: Path = ROOT, options: tuple[str, ...] = (), started: int = len(REPLICAS)
) -> Campus:
    """Start ``streamlit run app.py`` three times and HAProxy in front, with
    deploy/haproxy.cfg as shipped (only its addresses set through the environment).
    ``started`` < 3 starts fewer replicas, the config's other servers naming them again."""
    replicas, env = {}, {}
    try:
        for n, name in enumerate(REPLICAS):
            if n >= started:
                replicas[name] = replicas[REPLICAS[n % started]]
            else:
                log = log_dir / f"replica-{name}.log"
                proc, url = start_server(
                    cwd=cwd,
                    options=options,
                    env=ONE_THREAD,
                    log=open(log, "w"),  # noqa: SIM115
                )
                replicas[name] = (proc, url, log)
            url = replicas[name][1]
            env[f"ATTNVIZ_REPLICA_{name[1:]}"] = url.split("://", 1)[1]
        port, stats = free_port(), free_port()
        env |= {"ATTNVIZ_BIND": f"127.0.0.1:{port}", "ATTNVIZ_STATS": f"127.0.0.1:{stats}"}
        log = log_dir / "haproxy.log"
        proc = subprocess.Popen(
            [HAPROXY, "-db", "-f", str(HAPROXY_CFG)],
            env={**os.environ, **env},
            stdout=open(log, "w"),  # noqa: SIM115
            stderr=subprocess.STDOUT,
        )
    except BaseException:
        for p, _, _ in replicas.values():
            p.kill()
        raise
    campus = Campus(f"http://127.0.0.1:{port}", f"http://127.0.0.1:{stats}", replicas, proc, log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            status = campus.status()
            if len(status) == len(REPLICAS) and all(s["status"] == "UP" for s in status.values()):
                return campus
        except OSError:
            pass
        if proc.poll() is not None:
            break
        time.sleep(0.2)
    campus.close()
    raise RuntimeError(f"HAProxy did not come up: {log.read_text()[-2000:]}")


async def warm_up(campus: Campus, pages: list[str]) -> None:
    """Before class, every replica opens the pages once: its cold first visit, and the
    first run of a fresh process, which draws more than later ones (app.py's reload of a
    deep link opened on a freshly started server)."""

    async def one(url: str) -> None:
        s = Session(url)
        await s.open()
        try:
            for page in pages:
                await s.run(page, timeout=600)  # cold: imports, first figures
        finally:
            await s.close()

    await asyncio.gather(*(one(url) for _, url, _ in campus.replicas.values()))


@dataclass
class Run(Step):
    """One step of a visitor, and where it ran."""

    content: str = ""  # the view without the controls' own messages (stclient.View)
    replica: str = ""  # HAProxy's cookie when the step ended
    session: str = ""  # the server's session id
    query: str = ""  # the URL's query string as the step left it
    # After its replica died: "page" on the page it reloaded, where the URL sets every
    # control; "later" on the pages after that, and on a page whose first run was lost.
    # A page takes values over from the page before (keys such as ``score`` or ``D`` are
    # shared), and those died with the replica: from there on, the student's steps need
    # not match its lone replay's.
    moved: str = ""


@dataclass
class Loss:
    """A session whose replica died under it, and what it saw after reloading."""

    session: int
    page: str
    replica: str  # the one that died
    moved_to: str  # the one HAProxy sent the reload to
    before: str  # content of the last view it had of the page ("" if none yet)
    after: str  # content of the same URL, reopened
    seconds: float  # from the failed step to the view back
    connect_s: float = 0.0  # of which: the page load and websocket through HAProxy


def _as_sent(kind: str, proto):
    """The widget as the browser holds it: a value the server set from the URL
    (``set_value``) is the browser's own after that run, so it must not steer the
    scenario differently from a session that set the value itself."""
    if kind != "checkbox" or not proto.set_value:
        return proto
    copy = type(proto)()
    copy.CopyFrom(proto)
    copy.set_value = False
    return copy


async def visitor(
    url: str,
    i: int,
    sc: int,
    pages: list[str],
    steps: int,
    think: tuple,
    max_frac: float,
    locale: str,
    seed: int,
    losses: list[Loss],
    on_step=lambda run, mid_page: None,
) -> list[Run]:
    """Scenario ``sc`` through HAProxy: each page opened, then ``steps`` changes; the
    websocket drops and resumes before every page but the first.

    ``on_step(run, mid_page)`` follows every step; ``mid_page``: the view differs from
    the page as opened, and another change of it follows.
    """
    rng_think = random.Random(f"{seed}-{i}-{time.perf_counter()}")
    out: list[Run] = []
    s = Session(url, locale=locale)
    try:
        try:
            await s.open()
        except Exception as exc:  # no replica answered the first page load
            return [Run(pages[0], "open", "", 0.0, f"{type(exc).__name__}: {exc}")]
        for n, page in enumerate(pages):
            rng = random.Random(f"{seed}-{sc}-{page}")  # the same choices for a scenario
            action, view, last, change = "open", None, None, None
            query = ""  # the URL's query string, as the page last wrote it
            for k in range(steps + 1):
                if k:
                    await asyncio.sleep(rng_think.uniform(*think))
                    wid = rng.choice(sorted(view.widgets))
                    kind, proto = view.widgets[wid]
                    change = (wid, *next_value(kind, _as_sent(kind, proto), rng, max_frac))
                    s.set(*change)
                    action = f"{wid.rsplit('-', 1)[-1]}={change[2]}"
                was, t0 = s.cookie(COOKIE), time.perf_counter()
                try:
                    try:
                        if n and not k:  # a blip: reconnect to the same session
                            await s.close()
                            # A browser notices a dropped connection after a while, not
                            # at once; a reconnect that overtakes the server's handling of
                            # the close can get a new session (seen under heavy load).
                            await asyncio.sleep(2.0)
                            await s.open(resume=True)
                        view = await s.run(page, query)
                    except TimeoutError:
                        raise  # a replica too slow to answer: an error, not a death
                    except LOST:  # the replica died: reload the page where it was
                        s, view, reopened, connect = await _reload(
                            s, page, query, change if k else None
                        )
                    else:  # the blip's reconnect may itself have found the replica gone
                        reopened = view.content if s.cookie(COOKIE) != was else None
                        connect = 0.0
                except Exception as exc:  # a timeout, a failed reload: an error of the step
                    out.append(Run(page, action, "", 0.0, f"{type(exc).__name__}: {exc}"))
                    return out
                if reopened is not None:
                    before = last.content if last else ""
                    now = s.cookie(COOKIE)
                    seconds = time.perf_counter() - t0
                    losses.append(Loss(i, page, was, now, before, reopened, seconds, connect))
                err = "; ".join(view.exceptions)
                if view.status not in (0, None) and not err:
                    err = f"script status {view.status}"
                moved = out[-1].moved if out else ""
                if reopened is not None:
                    moved = "page" if last else "later"
                elif moved and not k:
                    moved = "later"
                out.append(
                    Run(
                        page,
                        action,
                        view.fingerprint,
                        view.seconds,
                        err,
                        view.content,
                        s.cookie(COOKIE) or "",
                        view.session_id,
                        query if view.query is None else view.query,
                        moved,
                    )
                )
                if not k:
                    opened = view.content  # the page as opened
                on_step(out[-1], k < steps and view.content != opened)
                last = view
                query = view.query if view.query is not None else query
                if not view.widgets:
                    break
    finally:
        await s.close()
    return out


async def _reload(old: Session, page: str, query: str, change):
    """Reload: a new page load with the same cookies and the URL the page showed, then
    the change that was lost, if one was. Returns the new session, its view, the
    content of the reopened URL, and the seconds the page load and websocket took."""
    s = Session(old.url, locale=old.locale)
    s.jar = old.jar  # the browser keeps its cookies, the dead replica's name among them
    t0 = time.perf_counter()
    await s.open()
    connect = time.perf_counter() - t0
    view = await s.run(page, query)
    reopened = view.content
    if change:
        s.set(*change)
        view = await s.run(page, view.query if view.query is not None else query)
    return s, view, reopened, connect


@dataclass
class School:
    runs: dict = field(default_factory=dict)  # session -> [Run]
    losses: list = field(default_factory=list)  # [Loss]
    references: dict = field(default_factory=dict)  # scenario -> [Run] (lone replays)
    reopened: dict = field(default_factory=dict)  # scenario -> [content of each step's URL]
    killed: str = ""
    killed_at: float = 0.0  # seconds after the start
    wall: float = 0.0

    def latencies(self) -> list[float]:
        return [r.seconds for runs in self.runs.values() for r in runs if not r.error]

    def errors(self) -> list[str]:
        return [
            f"session {i} {r.page} {r.action}: {r.error}"
            for i, runs in self.runs.items()
            for r in runs
            if r.error
        ]

    def lost_views(self) -> list[Loss]:
        """Reloads that did not bring back the view the student had."""
        return [x for x in self.losses if x.before and x.before != x.after]

    def mismatches(self, m: int) -> list[str]:
        """Steps that show another view than the lone replay of the same scenario (its
        content: tests/load/classroom.py's whole-message fingerprint also tells apart a
        figure computed now, behind a placeholder left empty, from one taken from the
        cache, which two replicas need not share)."""
        out = []
        for i, runs in self.runs.items():
            ref = self.references.get(i % m, [])
            if len(ref) != len(runs):
                out.append(f"session {i}: {len(runs)} steps, its lone replay {len(ref)}")
            for j, (r, want) in enumerate(zip(runs, ref, strict=False)):
                if r.moved != "later" and not r.error and r.content != want.content:
                    out.append(f"session {i} step {j} ({r.page} {r.action})")
        return out

    def urls_losing_views(self) -> list[str]:
        """Steps of the lone replays whose URL, opened afresh, shows another view: what a
        reload after that step would lose."""
        return [
            f"scenario {sc} step {j} ({r.page} {r.action}): ?{r.query}"
            for sc, ref in self.references.items()
            for j, (r, again) in enumerate(zip(ref, self.reopened.get(sc, []), strict=False))
            if not r.error and again != r.content
        ]

    def unsticky(self) -> list[str]:
        """Consecutive steps of a session on different replicas, or in different sessions
        of one replica (a reconnect that did not get its session back), other than the
        move away from the killed replica."""
        out = []
        for i, runs in self.runs.items():
            for a, b in itertools.pairwise(runs):
                if a.error or b.error:
                    continue
                moved = a.replica == self.killed != b.replica and b.moved and not a.moved
                if (a.replica, a.session) != (b.replica, b.session) and not moved:
                    what = "replica" if a.replica != b.replica else "session"
                    was, now = f"{a.replica}/{a.session}", f"{b.replica}/{b.session}"
                    out.append(f"session {i} {b.page}: new {what}, {was} -> {now}")
        return out

    def first_replica(self) -> Counter:
        return Counter(runs[0].replica for runs in self.runs.values() if runs)

    def summary(self) -> dict:
        lat = sorted(self.latencies())
        q = statistics.quantiles(lat, n=20) if len(lat) >= 2 else lat * 19
        back = sorted(x.seconds for x in self.losses)
        connect = sorted(x.connect_s for x in self.losses)
        return {
            "sessions": len(self.runs),
            "interactions": len(lat),
            "errors": len(self.errors()),
            "lost_views": len(self.lost_views()),
            "reconnected": sum(x.moved_to not in (None, self.killed) for x in self.losses),
            "p50_s": round(statistics.median(lat), 3) if lat else None,
            "p95_s": round(q[18], 3) if lat else None,
            "max_s": round(lat[-1], 3) if lat else None,
            "reload_max_s": round(back[-1], 3) if back else None,
            "reload_connect_max_s": round(connect[-1], 3) if connect else None,
            "sessions_per_replica": dict(sorted(self.first_replica().items())),
            "killed": self.killed,
            "killed_at_s": round(self.killed_at, 1),
            "wall_s": round(self.wall, 1),
        }


async def school(
    campus: Campus,
    k: int,
    m: int,
    pages: list[str],
    per_session: int = 2,
    steps: int = 3,
    think: tuple = (0.5, 2.0),
    stagger: float = 2.0,
    max_frac: float = 0.25,
    seed: int = 0,
    kill: str = "r2",
    kill_after: float = 0.5,
) -> School:
    """K concurrent sessions through HAProxy; replica ``kill`` dies once ``kill_after``
    of all steps are done. Then one lone replay per scenario, through HAProxy again, and
    every step of it reopened from its URL in a new session."""
    res, locales = School(), ["en-US", "ja-JP"]
    total = k * per_session * (steps + 1)
    done, t0 = 0, time.perf_counter()

    def step_done(run: Run, mid_page: bool) -> None:
        nonlocal done
        done += 1
        # Killed under a student who has changed the page and is about to change it again.
        ready = done >= kill_after * total and mid_page and run.replica == kill
        if kill and not res.killed and ready:
            campus.kill(kill)
            res.killed, res.killed_at = kill, time.perf_counter() - t0

    async def one(i: int) -> None:
        await asyncio.sleep(random.Random(i).uniform(0, stagger))
        sc = i % m
        res.runs[i] = await visitor(
            campus.url, i, sc, plan(sc, pages, per_session), steps, think, max_frac,
            locales[sc % 2], seed, res.losses, step_done,
        )  # fmt: skip

    await asyncio.gather(*(one(i) for i in range(k)))
    res.wall = time.perf_counter() - t0
    for sc in range(m):
        res.references[sc] = await visitor(
            campus.url, -1, sc, plan(sc, pages, per_session), steps, (0, 0), max_frac,
            locales[sc % 2], seed, [],
        )  # fmt: skip
        res.reopened[sc] = [
            await _open(campus.url, locales[sc % 2], r.page, r.query) for r in res.references[sc]
        ]
    return res


async def _open(url: str, locale: str, page: str, query: str) -> str:
    """What a new visitor opening ``page?query`` sees (its content fingerprint)."""
    s = Session(url, locale=locale)
    try:
        await s.open()
        return (await s.run(page, query)).content
    finally:
        await s.close()


async def from_the_tour(url: str, claim: str, seed: int, locale: str = "ja-JP") -> dict[str, View]:
    """A student at tour stop ``claim`` on example ``seed`` follows the stop's link to its page,
    as the browser does (the link's query string, ``from=`` among it); then the URL the page
    left, reloaded (a new session, the browser's cookies kept) and opened by a new visitor.
    The views by name: "tour", "walked", "reloaded", "fresh"; each with the page's URL as
    ``query``."""
    s = Session(url, locale=locale)
    await s.open()
    try:
        views = {"tour": await s.run("tour", f"stop={claim}&example={seed}")}
        page = next(p for p in views["tour"].links if p[0] != "tour")  # the stop's own page
        views["walked"] = await s.run(page[0], page[1])
        here = views["walked"].query if views["walked"].query is not None else page[1]
        for name in ("reloaded", "fresh"):
            again = Session(url, locale=locale)
            if name == "reloaded":
                again.jar = s.jar
            await again.open()
            try:
                views[name] = await again.run(page[0], here)
            finally:
                await again.close()
        for view in views.values():
            view.query = view.query if view.query is not None else here
        return views
    finally:
        await s.close()
