"""A class voting through HAProxy, two replicas sharing one SQLite file (tests/load/votes.py):
every student's vote confirmed within 5 s and counted once; the teacher's screen shows the
whole class within 2 s of the last vote; one replica killed in mid-round loses no confirmed
vote; the idle class polls cheaply. The 120-student version with the figures:
bench/bench_votes.py."""

from __future__ import annotations

import asyncio

import pytest

from tests.load.votes import lesson, open_pair

pytestmark = pytest.mark.slow  # real servers, HAProxy, concurrent sessions

K = 16


@pytest.fixture(scope="module")
def run(tmp_path_factory, monkeypatch_module):
    logs = tmp_path_factory.mktemp("votes")
    url = f"sqlite:///{logs}/classes.sqlite3"
    monkeypatch_module.setenv("ATTNVIZ_STORE", url)
    campus = open_pair(logs, url)
    try:
        res = asyncio.run(asyncio.wait_for(lesson(campus, K, 2.0, kill=True, idle_s=20), 240))
        yield res, campus.server_errors()
    finally:
        campus.close()


@pytest.fixture(scope="module")
def monkeypatch_module():
    mp = pytest.MonkeyPatch()
    yield mp
    mp.undo()


def test_every_vote_confirmed_within_5_s_and_counted_once(run):
    res, server_errors = run
    assert not res.errors, (res.errors, server_errors)
    assert res.voted_within_s < 5, res.summary()
    assert sum(res.stored.values()) == K, res.stored


def test_the_teacher_sees_the_whole_class_within_2_s(run):
    res, _ = run
    assert res.teacher_lag_s is not None and res.teacher_lag_s <= 2.0, res.summary()


def test_a_replica_killed_mid_round_loses_no_confirmed_vote(run):
    res, _ = run
    assert res.killed and 0 < res.killed_after < K
    assert any(st.reloaded for st in res.students)  # some were on it and came back
    assert res.lost == [], res.lost


def test_every_screen_follows_the_teacher_within_2_s(run):
    res, _ = run
    assert len(res.follow) == K and max(res.follow) <= 2.0, res.summary()


def test_every_screen_moves_on_with_the_teacher_to_the_next_stop(run):
    res, _ = run
    assert len(res.follow_stop) == K and max(res.follow_stop) <= 2.0, res.summary()


def test_the_idle_class_costs_little(run):
    res, _ = run
    # issue 49's target (< 10 % per 100) is bench_votes' at 120 students; scaled up from 16,
    # a 1 % swing of the replicas' own floor moves this figure by 6 points, so CI's bound
    # leaves that room (a clean checkout's run read 10.0)
    assert res.idle["idle_server_cpu_pct_of_a_core_per_100_students"] < 15, res.idle
