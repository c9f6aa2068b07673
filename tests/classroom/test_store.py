"""The store's contract, the same for SQLite and for a real Redis server: what a class keeps,
one vote per student per round, expiry, writers in two processes, an unreachable store."""

from __future__ import annotations

import multiprocessing
import re
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from attnviz import classroom as cr
from attnviz.classroom import open_store

CHOICES = ("a", "b", "c")


def started(store, stop="S3", example=0, choices=CHOICES, right="b"):
    """A class on ``stop``, round 1 open."""
    t = store.create()
    store.move(t.code, t.key, stop, example, choices, right)
    return t


def test_a_class_code_and_key(store):
    t = store.create()
    assert re.fullmatch(f"[{cr.ALPHABET}]{{6}}", t.code)
    assert not set(cr.ALPHABET) & set("0O1lI")
    assert len(t.key) >= 32  # 24 random bytes, base64: 192 bits
    assert store.is_teacher(t.code, t.key) and not store.is_teacher(t.code, t.key[:-1] + "x")
    assert store.is_teacher(t.code.lower(), t.key)  # a code typed in lower case
    s = store.state(t.code)
    assert (s.stop, s.phase, s.round) == ("", "none", None)
    assert s.expires == pytest.approx(time.time() + cr.TTL, abs=60)


def test_the_class_follows_the_teacher_and_a_stop_keeps_its_phase(store):
    t = started(store)
    assert store.state(t.code, fresh=0).round == 1
    store.set_phase(t.code, t.key, "discuss")
    store.move(t.code, t.key, "S4", 2, ("x", "y"), "x", "ja")  # on without revealing
    s = store.state(t.code, fresh=0)
    assert (s.stop, s.example, s.phase, s.choices, s.lang) == ("S4", 2, "vote1", ("x", "y"), "ja")
    store.move(t.code, t.key, "S3", 0, CHOICES, "b")  # and back
    assert store.state(t.code, fresh=0).phase == "discuss"
    store.move(t.code, t.key, "S5", 0, (), "")  # a stop that asks nothing
    assert store.state(t.code, fresh=0).phase == "none"
    store.set_phase(t.code, t.key, "vote2")
    assert store.state(t.code, fresh=0).phase == "none"


def test_one_vote_per_student_per_round_across_reloads(store):
    t = started(store)
    _, me = store.join(t.code, "browser-1")
    store.vote(t.code, me, "S3", 0, 1, "a")
    store.rejoin(t.code, me)  # a reload: the same id, from the browser
    store.vote(t.code, me, "S3", 0, 1, "c")  # a change of mind: overwritten
    store.vote(t.code, me, "S3", 0, 1, "c")
    assert store.counts(t.code, "S3", 0, 1) == {"c": 1}
    assert store.my_vote(t.code, me, "S3", 0, 1) == "c"
    store.set_phase(t.code, t.key, "discuss")
    with pytest.raises(cr.RoundClosed):
        store.vote(t.code, me, "S3", 0, 1, "a")  # round 1 closed: kept as it was
    store.set_phase(t.code, t.key, "vote2")
    store.vote(t.code, me, "S3", 0, 2, "b")
    assert store.counts(t.code, "S3", 0, 1) == {"c": 1}
    assert store.counts(t.code, "S3", 0, 2) == {"b": 1}
    store.set_phase(t.code, t.key, "reveal")
    [row] = store.summary(t.code, t.key)
    assert (row.stop, row.right, row.voters(1), row.voters(2)) == ("S3", "b", 1, 1)
    assert (row.right_share(1), row.right_share(2)) == (0.0, 1.0)


def test_200_votes_from_200_sessions_within_5_s_all_counted(store):
    t = started(store)
    students = [store.join(t.code, f"browser-{i}")[1] for i in range(200)]

    def vote(i: int) -> None:
        store.vote(t.code, students[i], "S3", 0, 1, CHOICES[i % 3])

    t0 = time.perf_counter()
    with ThreadPoolExecutor(16) as pool:
        list(pool.map(vote, range(200)))
    took = time.perf_counter() - t0
    assert took < 5, took
    assert store.counts(t.code, "S3", 0, 1) == {"a": 67, "b": 67, "c": 66}


def _voter(url: str, code: str, students: list[str], choice: str) -> None:
    store = open_store(url)
    for s in students:
        store.vote(code, s, "S3", 0, 1, choice)


@pytest.mark.slow  # two processes, each with its own interpreter and imports
def test_concurrent_writers_from_two_processes(store, store_url):
    t = started(store)
    students = [store.join(t.code, f"b{i}")[1] for i in range(120)]
    ctx = multiprocessing.get_context("spawn")
    procs = [
        ctx.Process(target=_voter, args=(store_url, t.code, students[i::2], "ab"[i]))
        for i in range(2)
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0, 0]
    assert store.counts(t.code, "S3", 0, 1) == {"a": 60, "b": 60}


def test_expiry_deletes_the_class_and_its_votes(store_url):
    store = open_store(store_url, ttl=1.0)
    t = started(store)
    _, me = store.join(t.code, "browser-1")
    store.vote(t.code, me, "S3", 0, 1, "a")
    time.sleep(1.3)
    with pytest.raises(cr.NoClass):
        store.state(t.code, fresh=0)
    with pytest.raises(cr.NoClass):
        store.vote(t.code, me, "S3", 0, 1, "b")
    store.purge()
    left = store.rows() if hasattr(store, "rows") else store.class_keys()
    assert not any(left.values()) if isinstance(left, dict) else not left, left


def test_the_teacher_ends_the_class_and_its_votes_go(store):
    t = started(store)
    _, me = store.join(t.code, "b")
    store.vote(t.code, me, "S3", 0, 1, "a")
    store.end(t.code, t.key)
    with pytest.raises(cr.NoClass):
        store.state(t.code, fresh=0)
    left = store.rows() if hasattr(store, "rows") else store.class_keys()
    assert not any(left.values()) if isinstance(left, dict) else not left, left


def test_caps_on_classes_and_students(store, monkeypatch):
    monkeypatch.setattr(cr.base, "MAX_CLASSES", 3)
    monkeypatch.setattr(cr.base, "MAX_STUDENTS", 2)
    t = started(store)
    store.create(), store.create()
    with pytest.raises(cr.TooManyClasses):
        store.create()
    store.join(t.code, "a"), store.join(t.code, "b")
    with pytest.raises(cr.ClassFull):
        store.join(t.code, "c")


def test_the_state_is_read_once_per_fresh_interval(store):
    t = started(store)
    first = store.state(t.code)
    store.set_phase(t.code, t.key, "discuss")  # the teacher's own process sees it at once
    assert store.state(t.code).phase == "discuss"
    assert first.phase == "vote1"


@pytest.mark.parametrize(
    "url", ["sqlite:////proc/no/such/folder/x.sqlite3", "redis://127.0.0.1:1/0"]
)
def test_an_unreachable_store_is_a_clear_error(url):
    with pytest.raises(cr.Unreachable) as err:
        open_store(url).create()
    assert err.value.key == "unreachable"


def test_an_unknown_store_url_is_refused():
    with pytest.raises(ValueError, match="ATTNVIZ_STORE"):
        open_store("mysql://x")


def test_the_store_url_names_the_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert open_store("sqlite:///rel.sqlite3").path == "rel.sqlite3"
    assert open_store(f"sqlite:///{tmp_path}/abs.sqlite3").path == f"{tmp_path}/abs.sqlite3"
    monkeypatch.delenv("ATTNVIZ_STORE", raising=False)
    assert open_store().path == str(cr.DEFAULT_PATH)
    assert (tmp_path / "rel.sqlite3").exists() and (tmp_path / "abs.sqlite3").exists()
