"""The longest link the app writes, opened through HAProxy with deploy/haproxy.cfg as
shipped (on loopback, tests/load/school.py), shows what the same link opened straight on
the replica shows; and HAProxy passes a link of 8,000 bytes sent twice in one request, in
the request line and as the Referer, as a client may (Chromium sends only the origin for a
Referer over 4 KB)."""

from __future__ import annotations

import http.client
from urllib.parse import urlencode

import pytest

from attnviz.limits import MAX_TEXT_CHARS
from tests.load.school import open_campus
from tools.longest_link import texts
from ui.url_pack import ADDRESS, MAX_LINK, MAX_QUERY, fit, unpack

from .conftest import assert_clean, open_app

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def campus(tmp_path_factory):
    campus = open_campus(tmp_path_factory.mktemp("proxy"), started=1)
    yield campus
    campus.close()


def longest_link(base: str, kind: str, limit: int = MAX_QUERY) -> str:
    """The real model's link with its sentence and pooled sentences at 2,000 characters
    of ``kind``, as the app writes it (``limit`` bytes after "?" at most)."""
    params = {
        "lang": "ja",
        "text": texts(MAX_TEXT_CHARS, seed=0)[kind],
        "qkview": "true",
        "pool": texts(MAX_TEXT_CHARS, seed=1)[kind],
    }
    return f"{base}/real_model?{urlencode(fit(params, limit)[0])}"


def test_haproxy_passes_a_link_of_8000_bytes_in_the_request_and_its_referer(campus):
    """The most a browser sends for a link of MAX_LINK bytes, the app's room for a long
    address included: the link's path and query in the request line and the whole link
    again as the Referer (a script or style of the page), besides its usual headers."""
    host = campus.url.split("://", 1)[1]
    link = longest_link(campus.url, "planes", MAX_LINK - len(f"{campus.url}/real_model?"))
    assert MAX_LINK - 40 < len(link.encode()) <= MAX_LINK
    referer = "https://" + "h" * (ADDRESS - 20) + link.split(host, 1)[1]
    headers = {"Referer": referer[:MAX_LINK], "Cookie": "SERVERID=r1; " + "c" * 500}
    for path in (link.split(host, 1)[1], "/_stcore/health"):
        conn = http.client.HTTPConnection(host, timeout=30)
        conn.request("GET", path, headers=headers | {"User-Agent": "Mozilla/5.0 " + "u" * 300})
        assert conn.getresponse().status == 200, path[:40]
        conn.close()


def seen(page) -> dict:
    """The page as a reader sees it: its text, its inputs' values, its pictures."""
    return page.evaluate(
        """() => ({
            text: document.querySelector('[data-testid=stMain]').innerText,
            inputs: [...document.querySelectorAll('[data-testid=stMain] input, textarea')]
                .map(x => x.value),
            charts: document.querySelectorAll('.js-plotly-plot').length,
            images: [...document.querySelectorAll('[data-testid=stMain] img')].map(x => x.src),
        })"""
    )


def opened(page, link: str) -> tuple[dict, list]:
    """What ``link`` shows, and every response of 400 or more on the way but 404 (Streamlit
    looks for its server under each level of the page's path first: /real_model/_stcore/…)."""
    failed = []

    def answered(r) -> None:
        if r.status >= 400 and r.status != 404:
            failed.append((r.status, r.url[:80]))

    page.on("response", answered)
    page.set_viewport_size({"width": 1280, "height": 720})
    open_app(page, link)
    page.locator(".share input[readonly]").wait_for()
    return seen(page), failed


@pytest.mark.parametrize("kind", ["japanese", "planes"])
def test_the_longest_link_opens_through_haproxy_as_it_does_directly(browser, campus, kind):
    proxied = longest_link(campus.url, kind)
    assert len(proxied.encode()) <= MAX_LINK
    if kind == "planes":  # as long as the app writes one
        assert len(proxied.encode()) > MAX_QUERY - 40
    direct = proxied.replace(campus.url, campus.replicas["r1"][1], 1)
    views = []
    for link in (direct, proxied):
        ctx = browser.new_context(locale="ja-JP")
        page = ctx.new_page()
        page.errors = []
        page.on("pageerror", lambda e, page=page: page.errors.append(str(e)))
        try:
            view, failed = opened(page, link)
            assert not failed, failed
            assert_clean(page)
            # the address is the link opened: packed already, nothing to write over
            assert page.url == link
            views.append(view)
        finally:
            ctx.close()
    assert views[0] == views[1]
    text = unpack(dict(p.split("=", 1) for p in proxied.split("?", 1)[1].split("&")))[0]
    assert text["text"][:50] in "".join(views[1]["inputs"])
