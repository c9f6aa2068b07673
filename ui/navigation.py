"""The app's navigation, and links to a page: a deep link on a fresh server, a link to no
page (the way back to the tour's stop a page was opened from: ui/way_back.py)."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import streamlit as st

from .drawn import drawn
from .language import tr
from .layout import css
from .messages import note

HERE = Path(__file__).parent
HIDE_DIALOG = css("hide_dialog")
DISMISS = st.components.v2.component(
    "attnviz.dismiss", js=(HERE / "dismiss.js").read_text(encoding="utf-8")
)
# The app's pages by group (its title's key; the first group has none): each page's script,
# pages/<where>.py, whose stem is its URL path and names its title, "<stem>.nav". The first
# page opens at the app's root. Tests and benchmarks read their page list from here.
GROUPS: dict[str, tuple[str, ...]] = {
    "": ("start/home", "start/tour", "start/classroom"),
    "app.nav_group_basics": (
        "attention/scoring",
        "attention/multihead",
        "attention/saturation",
        "attention/equivariance",
    ),
    "app.nav_group_block": (
        "block/block_anatomy",
        "block/depth_gradients",
        "block/training_race",
        "block/positional",
    ),
    "app.nav_group_real": ("real/real_model",),
}
SCRIPTS = {Path(where).name: f"pages/{where}.py" for group in GROUPS.values() for where in group}
TOUR = SCRIPTS["tour"]


def navigate() -> st.Page:
    """``st.navigation`` over ``GROUPS``, its pages built once per process and language
    (ui.drawn): an ``st.Page`` resolves its file on the disk, a cost a class rerunning at
    once would pay for every student. Each run gets copies, since ``st.navigation`` marks its
    copy of the page it returns as the one to run."""
    built = drawn(_pages)
    return st.navigation({group: [_copy(p) for p in listed] for group, listed in built.items()})


def _pages() -> dict[str, list[st.Page]]:
    """``GROUPS`` as ``st.Page`` objects titled in this run's language."""
    home = next(iter(SCRIPTS))
    return {
        tr(group) if group else "": [
            st.Page(SCRIPTS[stem], title=tr(f"{stem}.nav"), url_path=stem, default=stem == home)
            for stem in (Path(where).name for where in listed)
        ]
        for group, listed in GROUPS.items()
    }


def _copy(page: st.Page) -> st.Page:
    """A shallow copy of ``page``: ``st.navigation`` marks the page it returns as the one
    this run may call, which must not mark the one shared by every session."""
    return copy.copy(page)


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
