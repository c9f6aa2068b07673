"""A class voting through HAProxy (deploy/haproxy.cfg) in front of two replicas that share one
SQLite file: K students on the student link, each a light websocket session
(tests/load/stclient.py), and the teacher's screen polling its count as the browser does.
Used by tests/load/test_votes.py (small K) and bench/bench_votes.py (K = 120).

A student's client does what the browser does for this page: it keeps its cookies (HAProxy's
stickiness, and the class's anonymous id, which the page's component writes with JavaScript
and the client writes into its jar from the component's data), reruns the fragment whose
``auto_rerun`` the page asked for, and, when its replica dies, reloads: a new page load with
the same cookies, so HAProxy sends it to the other replica and the page finds the same
student again.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.cookiejar
import json
import os
import re
import statistics
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from attnviz.classroom import open_store
from attnviz.lessons import tour
from tests.browser.conftest import free_port, start_server
from tests.load.school import COOKIE, HAPROXY, HAPROXY_CFG, LOST, Campus
from tests.load.stclient import Session

VOTED = re.compile(r"Round (\d): \*\*(\d+)\*\* voted")
CONFIRMED = "✓"
DISCUSS = re.compile("Discuss with your neighbour|隣の人と話し合って")
BALLOT = re.compile("Round 1: answer on your own|1\u00a0回目：まず一人で|1 回目：まず一人で")


@dataclass
class Seen:
    """What one run (or fragment run) showed, as far as a class needs."""

    radio: str = ""  # the ballot's widget id
    options: tuple = ()  # the ballot's options, as shown (the browser sends the one picked)
    texts: list = field(default_factory=list)  # markdown and alert bodies
    exceptions: list = field(default_factory=list)
    cookie: dict | None = None  # the class cookie component's data
    fragments: dict = field(default_factory=dict)  # fragment id -> interval (s)
    page_hash: str = ""  # the page the run drew (navigation), which the browser sends back
    seconds: float = 0.0


def _read(fwd: ForwardMsg, seen: Seen) -> None:
    kind = fwd.WhichOneof("type")
    if kind == "auto_rerun":
        seen.fragments[fwd.auto_rerun.fragment_id] = fwd.auto_rerun.interval
    if kind == "navigation":
        seen.page_hash = fwd.navigation.page_script_hash
    if kind != "delta" or fwd.delta.WhichOneof("type") != "new_element":
        return
    el = fwd.delta.new_element
    etype = el.WhichOneof("type")
    if etype == "markdown":
        seen.texts.append(el.markdown.body)
    elif etype == "alert":
        seen.texts.append(el.alert.body)
    elif etype == "heading":
        seen.texts.append(el.heading.body)
    elif etype == "exception":
        seen.exceptions.append(f"{el.exception.type}: {el.exception.message}")
    elif etype == "radio" and "class_vote" in el.radio.id:
        seen.radio, seen.options = el.radio.id, tuple(el.radio.options)
    elif etype == "bidi_component" and el.bidi_component.component_name.endswith("class_cookie"):
        seen.cookie = json.loads(el.bidi_component.json)


async def run(
    s: Session, page: str, query: str, fragment: str = "", timeout=60.0, page_hash: str = ""
) -> Seen:
    """One rerun of ``page`` (or of one fragment of it, on the page ``page_hash`` names, as the
    browser sends it) with every widget value set so far."""
    msg = BackMsg()
    cs = msg.rerun_script
    cs.query_string, cs.page_name = query, page
    cs.context_info.locale, cs.context_info.timezone = s.locale, "UTC"
    cs.context_info.url = f"{s.url}/{page}"
    if fragment:
        cs.fragment_id, cs.is_auto_rerun = fragment, True
        cs.page_script_hash = page_hash
    for wid, (kind, value) in s.states.items():
        w = cs.widget_states.widgets.add()
        w.id = wid
        setattr(w, kind, value)
    seen, t0 = Seen(), time.perf_counter()
    await s.ws.send(msg.SerializeToString())
    async with asyncio.timeout(timeout):
        while True:
            fwd = ForwardMsg()
            fwd.ParseFromString(await s.ws.recv())
            _read(fwd, seen)
            if (
                fwd.WhichOneof("type") == "script_finished"
                and fwd.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN
            ):
                break
    seen.seconds = time.perf_counter() - t0
    return seen


def keep_cookie(s: Session, data: dict) -> None:
    """What ui/class_cookie.js does in the browser: the id into the site's cookies."""
    host = s.url.split("://", 1)[1].split(":")[0]
    s.jar.set_cookie(
        http.cookiejar.Cookie(
            0, data["name"], data["value"], None, False, host, False, False, "/", True,
            False, int(time.time()) + data["seconds"], False, None, None, {},
        )
    )  # fmt: skip


@dataclass
class Student:
    i: int
    s: Session
    query: str
    seen: Seen
    choice: int = -1
    confirmed_at: float = 0.0  # perf_counter when its screen confirmed the vote
    latency: float = 0.0  # vote sent → confirmed
    replica: str = ""
    reloaded: bool = False
    error: str = ""


async def join(url: str, code: str, i: int) -> Student:
    s = Session(url, locale=("en-US", "ja-JP")[i % 2], light=True)
    await s.open()
    query = f"class={code}"
    seen = await run(s, "classroom", query)
    if seen.cookie:
        keep_cookie(s, seen.cookie)
    return Student(i, s, query, seen, replica=s.cookie(COOKIE) or "")


async def reload(st: Student, tries: int = 10) -> None:
    """The replica died: a page load with the same cookies, the page opened again (again a
    second later while HAProxy still sends it to the dead replica: a 503, as a student who
    reloads until the page comes)."""
    s = Session(st.s.url, locale=st.s.locale, light=True)
    s.jar = st.s.jar
    for n in range(tries):
        try:
            await s.open()
            break
        except LOST:
            if n == tries - 1:
                raise
            await asyncio.sleep(1.0)
    st.s, st.reloaded = s, True
    st.seen = await run(s, "classroom", st.query)
    st.replica = s.cookie(COOKIE) or ""


async def vote(st: Student, choice: int) -> None:
    """Pick ``choice`` and wait for the screen to confirm it (reloading once if the replica
    died under the vote: a vote the screen never confirmed is voted again)."""
    for attempt in range(2):
        try:
            if not st.seen.radio:
                raise RuntimeError(f"no ballot: {st.seen.texts[-3:]} {st.seen.exceptions}")
            st.s.set(st.seen.radio, "string_value", st.seen.options[choice])
            t0 = time.perf_counter()
            seen = await run(st.s, "classroom", st.query)
            if not any(CONFIRMED in t for t in seen.texts):
                raise RuntimeError(f"not confirmed: {seen.texts[-3:]} {seen.exceptions}")
            st.choice, st.confirmed_at = choice, time.perf_counter()
            st.latency = st.confirmed_at - t0
            if seen.fragments:  # the browser polls the fragment its latest run drew
                st.seen.fragments, st.seen.page_hash = seen.fragments, seen.page_hash
            return
        except LOST:
            if attempt:
                raise
            await reload(st)


async def poll(s: Session, page: str, query: str, seen: Seen) -> Seen:
    """One poll of the page's fragment, as the browser's timer sends it."""
    return await run(s, page, query, fragment=next(iter(seen.fragments)), page_hash=seen.page_hash)


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def open_pair(log_dir: Path, store_url: str) -> Campus:
    """Two replicas sharing ``store_url`` behind deploy/haproxy.cfg as shipped; its third
    server is the first replica again (two cookie names, r1 and r3, one process)."""
    env = {"ATTNVIZ_STORE": store_url}
    replicas = {}
    for name in ("r1", "r2"):
        log = log_dir / f"replica-{name}.log"
        proc, url = start_server(env=env, log=open(log, "w"))  # noqa: SIM115
        replicas[name] = (proc, url, log)
    port, stats = free_port(), free_port()
    addr = {n: u.split("://", 1)[1] for n, (_, u, _) in replicas.items()}
    hap_env = {
        "ATTNVIZ_BIND": f"127.0.0.1:{port}",
        "ATTNVIZ_STATS": f"127.0.0.1:{stats}",
        "ATTNVIZ_REPLICA_1": addr["r1"],
        "ATTNVIZ_REPLICA_2": addr["r2"],
        "ATTNVIZ_REPLICA_3": addr["r1"],
    }
    log = log_dir / "haproxy.log"
    proc = subprocess.Popen(
        [HAPROXY, "-db", "-f", str(HAPROXY_CFG)],
        env={**os.environ, **hap_env},
        stdout=open(log, "w"),  # noqa: SIM115
        stderr=subprocess.STDOUT,
    )
    campus = Campus(f"http://127.0.0.1:{port}", f"http://127.0.0.1:{stats}", replicas, proc, log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if all(s["status"] == "UP" for s in campus.status().values()):
                return campus
        except OSError:
            pass
        time.sleep(0.2)
    campus.close()
    raise RuntimeError(f"HAProxy did not come up: {log.read_text()[-2000:]}")


@dataclass
class Lesson:
    k: int
    students: list = field(default_factory=list)
    voted_within_s: float = 0.0  # first vote sent → last confirmed
    votes_per_s: float = 0.0
    teacher_lag_s: float | None = None  # last confirmation → the teacher's screen shows K
    teacher_counts: list = field(default_factory=list)  # (perf_counter, count)
    killed: str = ""
    killed_after: int = 0  # confirmed votes when the replica died
    stored: dict = field(default_factory=dict)  # choice key -> votes in the store
    lost: list = field(default_factory=list)  # confirmed votes not in the store as confirmed
    errors: list = field(default_factory=list)
    idle: dict = field(default_factory=dict)
    follow: list = field(default_factory=list)  # seconds from the teacher's move to each screen
    follow_both: list = field(default_factory=list)  # the same before the kill, both replicas up
    follow_stop: list = field(default_factory=list)  # the teacher moves on to the next stop

    def p95(self) -> float:
        lat = sorted(st.latency for st in self.students if st.confirmed_at)
        return statistics.quantiles(lat, n=20)[18] if len(lat) >= 2 else float("nan")

    def summary(self) -> dict:
        lat = sorted(st.latency for st in self.students if st.confirmed_at)
        return {
            "students": self.k,
            "confirmed": len(lat),
            "voted_within_s": round(self.voted_within_s, 2),
            "votes_per_s": round(self.votes_per_s, 1),
            "p50_vote_to_confirmed_s": round(statistics.median(lat), 3) if lat else None,
            "p95_vote_to_confirmed_s": round(self.p95(), 3),
            "max_s": round(lat[-1], 3) if lat else None,
            "last_vote_to_teacher_count_s": None
            if self.teacher_lag_s is None
            else round(self.teacher_lag_s, 2),
            "killed": self.killed,
            "killed_after_confirmed": self.killed_after,
            "reloaded": sum(st.reloaded for st in self.students),
            "lost_confirmed_votes": len(self.lost),
            "errors": len(self.errors),
            "follow_p95_s": round(statistics.quantiles(self.follow, n=20)[18], 2)
            if len(self.follow) >= 2
            else None,
            "follow_max_s": round(max(self.follow), 2) if self.follow else None,
            "next_stop_p95_s": round(statistics.quantiles(self.follow_stop, n=20)[18], 2)
            if len(self.follow_stop) >= 2
            else None,
            "next_stop_max_s": round(max(self.follow_stop), 2) if self.follow_stop else None,
            "follow_both_replicas_p95_s": round(statistics.quantiles(self.follow_both, n=20)[18], 2)
            if len(self.follow_both) >= 2
            else None,
            "follow_both_replicas_max_s": round(max(self.follow_both), 2)
            if self.follow_both
            else None,
            **self.idle,
        }


async def lesson(campus: Campus, k: int, spread_s: float, kill: bool, idle_s: float = 0.0):
    """A class of ``k`` on stop S3: the teacher (teacher's link, then the tour) opens round 1;
    every student joins; with ``idle_s``, they sit idle that long, polling, while the
    replicas' CPU is measured; then they vote within ``spread_s``; one replica dies when half
    have confirmed (``kill``); the teacher's screen polls its count until it shows ``k``."""
    store = open_store(os.environ["ATTNVIZ_STORE"])
    ticket = store.create()
    res = Lesson(k)
    teacher = Session(campus.url, light=True)
    await teacher.open()
    await run(teacher, "classroom", f"class={ticket.code}&key={ticket.key}")
    tour_q = "stop=S3&example=0&present=true&lang=en"
    tseen = await run(teacher, "tour", tour_q)
    assert tseen.fragments, ("the teacher's panel has no live count", tseen.texts[-5:])
    state = store.state(ticket.code, fresh=0)
    assert state.phase == "vote1" and state.choices, state
    floor = await quiet(campus, idle_s / 2) if idle_s else 0.0
    students = list(await asyncio.gather(*(join(campus.url, ticket.code, i) for i in range(k))))
    res.students = students
    res.errors += [f"{st.i}: {st.seen.exceptions}" for st in students if st.seen.exceptions]
    if idle_s:
        res.idle = await idle(campus, students, idle_s, floor)
    # the teacher closes round 1 and opens it again: every screen follows, both replicas up
    phase = lambda p: lambda: store.set_phase(ticket.code, ticket.key, p)  # noqa: E731
    res.follow_both = await follow(students, phase("discuss"), DISCUSS)
    await follow(students, phase("vote1"), BALLOT)
    done = asyncio.Event()
    confirmed = 0
    # the replica the teacher is not on (cookie r3 is r1's process)
    victim = "r1" if teacher.cookie(COOKIE) == "r2" else "r2"

    async def one(st: Student) -> None:
        nonlocal confirmed
        await asyncio.sleep(st.i * spread_s / k)
        try:
            await vote(st, st.i % max(len(st.seen.options), 1))
        except Exception as exc:
            st.error = f"{type(exc).__name__}: {exc}"
            res.errors.append(f"student {st.i}: {st.error}")
            return
        confirmed += 1
        if kill and not res.killed and confirmed >= k // 2:
            campus.kill(victim)
            res.killed, res.killed_after = victim, confirmed

    async def watch() -> None:
        while not done.is_set():
            seen = await poll(teacher, "tour", tour_q, tseen)
            counts = [int(m.group(2)) for t in seen.texts for m in [VOTED.search(t)] if m]
            if counts:
                res.teacher_counts.append((time.perf_counter(), counts[0]))
                if counts[0] >= k and all(st.confirmed_at or st.error for st in students):
                    done.set()
            await asyncio.sleep(tseen.fragments[next(iter(tseen.fragments))] or 1.0)

    t0 = time.perf_counter()
    watcher = asyncio.create_task(watch())
    await asyncio.gather(*(one(st) for st in students))
    try:
        await asyncio.wait_for(done.wait(), timeout=20)
    except TimeoutError:
        res.errors.append(f"teacher's count stuck at {res.teacher_counts[-1:]}")
    done.set()
    await watcher
    last = max((st.confirmed_at for st in students if st.confirmed_at), default=t0)
    first_full = next((t for t, n in res.teacher_counts if n >= k), None)
    res.teacher_lag_s = None if first_full is None else max(0.0, first_full - last)
    res.voted_within_s = last - t0
    res.votes_per_s = sum(bool(st.confirmed_at) for st in students) / max(last - t0, 1e-9)
    res.stored = store.counts(ticket.code, "S3", 0, 1)
    res.follow = await follow(students, phase("discuss"), DISCUSS)
    # the teacher's screen moves on to the next stop: every screen shows its question
    res.follow_stop = await follow(students, next_stop(store, ticket, NEXT), shows_stop(NEXT))
    for st in students:
        if st.confirmed_at:
            sid = st.seen.cookie["value"] if st.seen.cookie else None
            mine = store.my_vote(ticket.code, sid, "S3", 0, 1) if sid else None
            if mine != state.choices[st.choice]:
                res.lost.append((st.i, st.choice, mine))
    for s in [*(st.s for st in students), teacher]:
        with contextlib.suppress(Exception):
            await s.close()
    return res


def _replica_cpu(campus: Campus) -> dict[str, float]:
    return {n: cpu_seconds(p.pid) for n, (p, _, _) in campus.replicas.items() if p.poll() is None}


async def quiet(campus: Campus, seconds: float) -> float:
    """The replicas' CPU with nobody polling (HAProxy's health checks, the teacher's open
    page), in cores: what an idle class's cost is measured above."""
    before, t0 = _replica_cpu(campus), time.perf_counter()
    await asyncio.sleep(seconds)
    after = _replica_cpu(campus)
    return sum(after[n] - before[n] for n in before) / (time.perf_counter() - t0)


async def idle(campus: Campus, students: list[Student], seconds: float, floor: float) -> dict:
    """Every student polls its page's fragment as the browser does, for ``seconds``, not
    voting: the replicas' CPU over that time above ``floor`` (cores, with nobody polling),
    per 100 students, and this client's own."""
    pids = {n: p.pid for n, (p, _, _) in campus.replicas.items() if p.poll() is None}
    before = {n: cpu_seconds(pid) for n, pid in pids.items()}
    me0, t0 = time.process_time(), time.perf_counter()
    stop = t0 + seconds
    polls = 0

    async def one(st: Student) -> None:
        nonlocal polls
        every = st.seen.fragments[next(iter(st.seen.fragments))] or 1.0
        await asyncio.sleep((st.i % 10) * every / 10)
        while time.perf_counter() < stop:
            await poll(st.s, "classroom", st.query, st.seen)
            polls += 1
            await asyncio.sleep(every)

    await asyncio.gather(*(one(st) for st in students))
    wall = time.perf_counter() - t0
    server = sum(cpu_seconds(pid) - before[n] for n, pid in pids.items())
    per100 = 100 * (server / wall - floor) * 100 / len(students)
    return {
        "idle_s": round(wall, 1),
        "idle_polls_per_s": round(polls / wall, 1),
        "idle_floor_cpu_pct_of_a_core": round(100 * floor, 1),
        "idle_server_cpu_pct_of_a_core": round(100 * server / wall, 1),
        "idle_server_cpu_pct_of_a_core_per_100_students": round(per100, 1),
        "idle_client_cpu_pct_of_a_core": round(100 * (time.process_time() - me0) / wall, 1),
    }


NEXT = "S4"  # the stop the teacher moves on to, after S3


def next_stop(store, ticket, claim: str, seed: int = 0):
    """The teacher's move to ``claim``'s example ``seed`` (what the tour's panel does when
    its screen arrives there): its choices and right answer as the tour asks them."""
    ask = tour.ASKS[claim]
    cfg = ask.config(lang="en", seed=seed)
    ex = ask.ask(cfg, ask.run(cfg), "en", seed)
    choices = [c.key for c in ex.choices]
    return lambda: store.move(ticket.code, ticket.key, claim, seed, choices, ex.right, "en")


def shows_stop(claim: str) -> re.Pattern:
    """A student's screen on ``claim``: its heading names the stop in bold."""
    return re.compile(rf"\*\*{claim}\*\*")


async def follow(students: list[Student], move, shows: re.Pattern) -> list[float]:
    """Every screen polling as the browser does; the teacher moves (``move()``); the seconds
    until each screen has redrawn in the new phase (a text that ``shows`` it)."""
    t_move = 0.0
    moved = asyncio.Event()
    lags: list[float] = []

    async def one(st: Student) -> None:
        while True:
            try:
                seen = await poll(st.s, "classroom", st.query, st.seen)
            except LOST:  # on the replica that died: the browser reloads
                await reload(st)
                seen = st.seen
            if moved.is_set() and any(shows.search(t) for t in seen.texts):
                lags.append(time.perf_counter() - t_move)
                if seen.fragments:  # the page as redrawn: its ballot, its fragment
                    st.seen = seen
                return
            await asyncio.sleep(0.05)

    tasks = [asyncio.create_task(one(st)) for st in students if not st.error]
    await asyncio.sleep(1.5)  # every screen waiting in its poll
    t_move = time.perf_counter()
    move()
    moved.set()
    await asyncio.wait_for(asyncio.gather(*tasks), timeout=30)
    return lags
