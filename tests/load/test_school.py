"""Three replicas behind HAProxy (deploy/haproxy.cfg as shipped), on loopback: sessions
stay on one replica, the load is spread, and when a replica dies mid-lesson its students
reload onto another one and see exactly the figure they saw; nobody else notices. A page
opened from a tour stop's link shows the way back to the stop, and its URL, reloaded or
opened by another visitor, shows the same.

The K = 60 version with latency figures is bench/bench_school.py.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

import pytest

from attnviz.i18n import t
from tests.load.school import REPLICAS, School, from_the_tour, open_campus, school, warm_up

pytestmark = pytest.mark.slow  # concurrent sessions against real servers

K, M = 6, 3  # two sessions per scenario
PAGES = ["multihead", "scoring", "positional"]  # scenario i visits two of them
KILL = "r2"


@dataclass
class Lesson:
    res: School
    status: dict  # HAProxy's view of each replica at the end
    haproxy_log: str
    server_errors: list  # exception lines of the replicas' logs
    tour: dict  # tests.load.school.from_the_tour's views, after the replica died


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    logs = tmp_path_factory.mktemp("school")
    campus = open_campus(logs)
    try:
        asyncio.run(warm_up(campus, PAGES))
        res = asyncio.run(
            asyncio.wait_for(
                school(campus, K, M, PAGES, steps=3, think=(0.2, 0.8), stagger=1.0, kill=KILL),
                timeout=240,
            )
        )
        deadline = time.monotonic() + 15  # HAProxy marks it down after 3 failed checks (~7 s)
        while campus.status()[KILL]["status"] != "DOWN" and time.monotonic() < deadline:
            time.sleep(0.5)
        tour = asyncio.run(asyncio.wait_for(from_the_tour(campus.url, "S9", 1), timeout=120))
        yield Lesson(res, campus.status(), campus.log.read_text(), campus.server_errors(), tour)
    finally:
        campus.close()


def test_no_errors_and_every_view_is_the_lone_replays(run):
    res = run.res
    assert not res.errors(), (res.errors(), run.server_errors)
    assert not res.mismatches(M), res.mismatches(M)


def test_every_step_s_url_reopens_its_view(run):
    """What a reload relies on, for every step of every scenario, not only for those that
    the kill happened to hit: the URL as the step left it brings back what it showed."""
    assert not run.res.urls_losing_views(), run.res.urls_losing_views()


def test_each_session_stays_on_one_replica_and_the_load_is_spread(run):
    res, status = run.res, run.status
    # Every run of a session, across a websocket reconnect between pages, reached the
    # same replica and the same server-side session (except the move off the dead one).
    assert not res.unsticky(), res.unsticky()
    per_replica = res.first_replica()
    assert set(per_replica) == set(REPLICAS), per_replica
    assert max(per_replica.values()) - min(per_replica.values()) <= 1, per_replica
    # HAProxy counts the same: every replica served sessions.
    assert all(int(status[name]["stot"]) > 0 for name in REPLICAS), status


def test_a_dead_replica_loses_nobody_s_view(run):
    res, status, log = run.res, run.status, run.haproxy_log
    assert res.killed == KILL, "the replica was never killed under a student"
    victims = {x.session for x in res.losses}
    on_killed = {i for i, runs in res.runs.items() if runs[0].replica == KILL}
    assert victims and victims <= on_killed, (victims, on_killed)
    for x in res.losses:  # each reload went through HAProxy to a live replica ...
        assert x.replica == KILL and x.moved_to in set(REPLICAS) - {KILL}, x
    # ... and showed what the student saw before, from the URL alone, at least one of
    # them a view that differs from the page as opened (the URL carried the controls).
    assert not res.lost_views(), res.lost_views()
    opened = {
        (sc, r.page): r.content
        for sc, ref in res.references.items()
        for r in ref
        if r.action == "open"
    }
    assert any(x.before and x.before != opened[x.session % M, x.page] for x in res.losses)
    # The students of the other replicas noticed nothing: no reload, no error, every
    # step the lone replay's (test above), and HAProxy took only the dead one out.
    for i in set(res.runs) - on_killed:
        assert not any(r.moved for r in res.runs[i]), i
    assert status[KILL]["status"] == "DOWN", status[KILL]
    assert all(status[n]["status"] == "UP" for n in REPLICAS if n != KILL), status
    down = [line for line in log.splitlines() if " is DOWN" in line]
    assert down and all(f"replicas/{KILL} " in line for line in down), down


def test_a_page_opened_from_the_tour_keeps_its_way_back_in_its_url(run):
    """S9's link on example 1 opens the scoring page with the way back to S9 above it; the
    URL it leaves names the stop, so a reload and a new visitor see the same view."""
    views = run.tour
    assert not any(v.exceptions for v in views.values()), {
        k: v.exceptions for k, v in views.items()
    }
    back = t("tour.back", "ja", claim="S9")
    for name in ("walked", "reloaded", "fresh"):
        assert [q for p, q, label in views[name].links if p == "tour" and label == back] == [
            "lang=ja&stop=S9&example=1"
        ], name
    assert "from=S9-1" in views["walked"].query
    assert views["reloaded"].content == views["fresh"].content == views["walked"].content
