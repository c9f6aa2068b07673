"""Links to a page: a deep link on a fresh server, and a link to no page."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import streamlit as st

from .language import tr
from .layout import css
from .messages import note

HERE = Path(__file__).parent
HIDE_DIALOG = css("hide_dialog")
DISMISS = st.components.v2.component(
    "attnviz.dismiss", js=(HERE / "dismiss.js").read_text(encoding="utf-8")
)


def reopen_link() -> None:
    """Reload the browser's page at the link it opened, hiding any dialog meanwhile.

    Needed once per process: a fresh server's first run goes through Streamlit's old
    pages/ discovery, which finds no page for a deep link, opens a "Page not found" dialog
    that blocks the page and moves the browser to the main page's address. The browser is
    put back on its link and reloaded into an ordinary session before this run has drawn
    much; clients that run no script (AppTest, the load test's client) get the page.
    """
    path = urlsplit(st.context.url or "").path or "/"
    # the link is data from the URL: as a JSON string with "<" escaped, it cannot end the
    # script element it sits in
    target = json.dumps(f"{path}?{urlencode(st.query_params.to_dict())}").replace("<", "\\u003c")
    st.html(HIDE_DIALOG)
    st.iframe(
        "<script>const here = window.parent;"
        f" here.history.replaceState(null, '', {target}); here.location.reload();</script>",
        height=1,
    )


def asked_path() -> str:
    """The page the browser asked for: its URL's path under the server's base path."""
    path = urlsplit(st.context.url or "").path.strip("/")
    base = str(st.get_option("server.baseUrlPath") or "").strip("/")
    if base and (path == base or path.startswith(base + "/")):
        path = path[len(base) :].strip("/")
    return path


def unknown_page(page: st.Page) -> None:
    """A link to a page that does not exist opens the home page. Streamlit then opens a
    modal "Page not found" dialog over it, in English only; close it (hidden until then)
    and say in the reader's language which page was missing. ``/home``, the home page's
    own name, opens it without a notice."""
    asked = asked_path()
    if page.url_path or not asked:
        return
    st.html(HIDE_DIALOG)
    with st.sidebar:
        DISMISS(key="dismiss")
    if asked != "home":
        name = re.sub(r"[^\w-]", "", asked)[:40]  # shown as text: no markup, short
        note(tr("app.page_not_found", name=name))
