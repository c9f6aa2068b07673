"""A small classroom on one real server: 5 sessions at once over every page, speaking
Streamlit's websocket protocol. No errors, and no session ever sees another's change.

The K = 40 version with latency and memory figures is bench/bench_classroom.py.
"""

from __future__ import annotations

import asyncio

import pytest

from tests.browser.conftest import start_server
from tests.load.classroom import app_pages, classroom
from tests.load.stclient import Session

pytestmark = pytest.mark.slow  # concurrent sessions against real servers

K, M = 5, 3  # sessions 0 and 3, 1 and 4 follow the same scenario; 2 is alone


async def warm_up(url: str) -> None:
    """The teacher's first visit: a fresh server's first run also puts a browser back on its
    link (app.py), which a lone replay on a warm server would not draw."""
    s = Session(url)
    await s.open()
    await s.run("home")
    await s.close()


@pytest.fixture(scope="module")
def url():
    proc, url = start_server()
    asyncio.run(warm_up(url))
    yield url
    proc.terminate()
    proc.wait(timeout=20)


def test_five_sessions_no_errors_and_isolated(url):
    pages = app_pages()
    per_session = -(-len(pages) // M)  # the M scenarios together visit every page
    res = asyncio.run(
        classroom(url, K, M, pages, per_session=per_session, steps=3, think=(0.1, 0.6), stagger=1.0)
    )
    assert not res.errors(), res.errors()
    visited = {s.page for steps in res.steps.values() for s in steps}
    assert visited == set(pages), visited
    # Every session saw, step by step, what a lone replay of its scenario sees ...
    assert not res.leaks(M), res.leaks(M)
    # ... and that check can fail: scenarios differ from one another at every step's end.
    finals = {sc: ref[-1] for sc, ref in res.references.items()}
    assert len(set(finals.values())) == M, finals


def test_the_isolation_check_catches_a_leak():
    """Against an app whose slider writes into a process-wide dict, sessions disagree with
    their lone replays: the check above is able to fail."""
    proc, leaky = start_server("tests/load/leaky_app.py")
    try:
        res = asyncio.run(
            classroom(leaky, K, M, ["p"], per_session=1, steps=3, think=(0.1, 0.6), stagger=1.0)
        )
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    assert not res.errors(), res.errors()
    assert res.leaks(M)
