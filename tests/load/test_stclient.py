"""The load tests' client does for the server what the browser does: it names the large
messages it holds (the server then sends a reference to each one unchanged), and a light
session reruns only the fragment of a widget it changed, its view keeping the page's other
widgets. Against a real server, on the multi-head page (its right-hand side a fragment)."""

from __future__ import annotations

import asyncio
import random

import pytest
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from bench.moving_class import stop
from tests.browser.conftest import start_server
from tests.load.stclient import FINISHED_FRAGMENT, FINISHED_OK, Session, next_value

pytestmark = pytest.mark.slow  # a real server


@pytest.fixture(scope="module")
def url():
    proc, url = start_server()
    yield url
    stop(proc)


def types(session: Session) -> list[str]:
    """Spy on ``session``: the type of every ForwardMsg it receives, as sent."""
    seen: list[str] = []
    recv = session.ws.recv

    async def spying():
        raw = await recv()
        fwd = ForwardMsg()
        fwd.ParseFromString(raw)
        seen.append(fwd.WhichOneof("type"))
        return raw

    session.ws.recv = spying
    return seen


def test_an_unchanged_large_element_comes_as_a_reference(url):
    async def go():
        s = Session(url, light=True)
        await s.open()
        try:
            first = await s.run("multihead")
            second = await s.run("multihead")  # the messages the browser holds from now on
            seen = types(s)
            again = await s.run("multihead")
            return first, second, again, seen, dict(s.cache)
        finally:
            await s.close()

    first, second, again, seen, cache = asyncio.run(go())
    assert cache, "no message marked cacheable: the maps are over 10 kB"
    assert seen.count("ref_hash") >= 2  # the grid of heads and the head enlarged
    assert again.nbytes < first.nbytes / 2, (again.nbytes, first.nbytes)  # 30 of 84 kB
    assert again.widgets.keys() == second.widgets.keys()  # read from the messages held
    assert again.status == FINISHED_OK


@pytest.mark.parametrize("light", [True, False])
def test_a_change_inside_a_fragment_reruns_the_fragment_in_a_light_session(url, light):
    async def go():
        s = Session(url, light=light)
        await s.open()
        try:
            view = await s.run("multihead")
            inside = sorted(w for w, f in view.fragments.items() if f)
            wid = next(w for w in inside if w.endswith("-show"))
            kind, proto = view.widgets[wid]
            s.set(wid, *next_value(kind, proto, random.Random(0)))
            return view, await s.run("multihead"), inside
        finally:
            await s.close()

    before, after, inside = asyncio.run(go())
    assert inside and len(inside) < len(before.widgets)  # the left column's are outside
    assert after.status == (FINISHED_FRAGMENT if light else FINISHED_OK)
    assert after.widgets.keys() == before.widgets.keys()  # the page's other widgets kept
