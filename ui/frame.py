"""The frame every page runs in: language, presentation mode, the share link, messages."""

from __future__ import annotations

import gc
import hashlib
import json
import pickle
import re
import uuid
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import plotly.graph_objects as go
import streamlit as st

from attnviz.errors import InputError
from attnviz.i18n import LANGS, catalogue, t

BOUND = "_url_keys"  # session key: {widget key: default} of this run, for the URL
NOTES = "_url_notes"  # session key: container for notices about URL values
LINKED = "_url_linked"  # session key: this run has written its URL and share link
SHOWN_IN = "_lang_shown"  # session key: the language the last run drew its controls in
RELABEL = "_relabel"  # session key: this run's language is not the last run's
SETTLE = "_settle"  # session key: controls to move before the next run draws them, and why
SETTLED = "_settled"  # session key: why this run's controls were moved (shown by the page)
HIDE_DIALOG = "<style>[data-testid=stDialog] {display: none !important;}</style>"
ORDER = "_component_order"  # session key: (session id, {component key: (digest, number)})
HERE = Path(__file__).parent


def component_js(stem: str) -> str:
    """The code of component ``stem``: ``ui/<stem>.js`` preceded by ``ui/common.js``: it draws
    only data newer than it shows (numbered by :func:`ordered`), and notes under a picture."""
    return "".join((HERE / f"{f}.js").read_text(encoding="utf-8") for f in ("common", stem))


def component(name: str, stem: str):
    """An ``st.components.v2`` component of ``component_js(stem)`` and ``ui/<stem>.css``
    preceded by ``ui/common.css``."""
    css = "".join((HERE / f"{f}.css").read_text(encoding="utf-8") for f in ("common", stem))
    return st.components.v2.component(name, css=css, js=component_js(stem))


def ordered(key: str, data: dict) -> dict:
    """``data`` with ``order``: [this session, a number that grows each time the data of
    component ``key`` changes]. Equal data keeps its number, so a rerun that changes
    nothing of it does not draw it again. Why: ui/common.js.

    The digest is of the pickle, on every rerun: a third of JSON's cost (2.6 against 7.4 ms
    for the 2.4-MB map at N = 512). Two equal payloads built differently may pickle apart;
    that only draws them once more."""
    session, numbers = st.session_state.setdefault(ORDER, (uuid.uuid4().hex, {}))
    digest = hashlib.blake2b(pickle.dumps(data, protocol=5), digest_size=16).digest()
    last, n = numbers.get(key, (None, 0))
    if digest != last:
        n += 1
        numbers[key] = (digest, n)
    return data | {"order": [session, n]}


SHARE = component("attnviz.share", "share")
DISMISS = st.components.v2.component(
    "attnviz.dismiss", js=(HERE / "dismiss.js").read_text(encoding="utf-8")
)


@st.cache_resource
def warm_up() -> bool:
    """Once per process: pay Plotly's first-figure set-up, then freeze the heap.

    Freezing the objects alive after start-up (torch, plotly, pandas) keeps them out of
    every later garbage-collection pass.
    """
    go.Figure(go.Heatmap(z=[[0.0]])).to_json()
    gc.collect()
    gc.freeze()
    return True


def lang() -> str:
    """The current language, ``ja`` or ``en`` (the browser's, until one is chosen)."""
    value = st.session_state.get("lang")
    if value in LANGS:
        return value
    return "ja" if (st.context.locale or "").lower().startswith("ja") else "en"


def tr(key: str, **fields: object) -> str:
    """``key`` from the catalogue in the current language."""
    return t(key, lang(), **fields)


def presenting() -> bool:
    """True in presentation mode (projector): larger type and figures."""
    return bool(st.session_state.get("present", False))


SPLIT_MIN_PX = 700  # narrower (1024 px with the sidebar open: 564), the two columns stack


def split(spec: list[int]):
    """A page's two columns, controls and formulas beside the figures; app.py's CSS stacks
    them when they would be narrower than ``SPLIT_MIN_PX`` together (formulas cut at the
    column's edge, maps a few dozen pixels wide), whatever the window or the sidebar."""
    with st.container(key="split"):
        return st.columns(spec)


def begin_page() -> None:
    """Start a run (from app.py): forget the last run's URL keys; make room for URL notices;
    note whether the language changed since the last run (the controls relabel then)."""
    st.session_state[BOUND] = {}
    st.session_state[NOTES] = st.container()
    st.session_state[LINKED] = False
    st.session_state[RELABEL] = st.session_state.get(SHOWN_IN, lang()) != lang()
    values, why = st.session_state.pop(SETTLE, ({}, None))
    st.session_state.update(values)  # before any widget: a widget's value may be set then
    st.session_state[SETTLED] = why


def settle(why: str, **values: object) -> None:
    """Show the controls at the values this run used, where the page had to move one (H
    to a divisor of D, say): the widgets are drawn already, so the run starts again with
    them moved, and ``settled()`` gives that run ``why``. Nothing happens when every
    control already holds its value, or in a run that a settle started (never a loop)."""
    moved = {k: v for k, v in values.items() if st.session_state.get(k) != v}
    if moved and settled() is None:
        # every control of this run is set again, not only those moved: one first drawn
        # in this run never reached the browser, which would show its widget's own empty
        # default (the example text blank, while the page computed with it)
        drawn = st.session_state.get(BOUND, {})
        kept = {k: st.session_state[k] for k in drawn if k in st.session_state}
        st.session_state[SETTLE] = (kept | moved, why)
        st.rerun()


def settled() -> str | None:
    """Why the last run moved this run's controls (``settle``), or None."""
    return st.session_state.get(SETTLED)


def end_page() -> None:
    """End a run (app.py, whatever stopped it): the share link; the language drawn in."""
    share_link()
    st.session_state[SHOWN_IN] = lang()


def stop() -> None:
    """End this run here, after writing the controls read so far into the URL and the share
    link (Streamlit drops whatever a run draws after ``st.stop()``, app.py's link included)."""
    share_link()
    st.stop()


def note(message: str) -> None:
    """A warning in the notices container at the top of the page."""
    (st.session_state.get(NOTES) or st).warning(message)


def url_params() -> dict[str, str]:
    """The URL of this view: every control of the run off its default, the language always."""
    bound = st.session_state.get(BOUND, {})
    params = {
        k: st.session_state[k]
        for k, default in bound.items()
        if k in st.session_state and (k == "lang" or st.session_state[k] != default)
    }
    return {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in params.items()}


def share_link() -> None:
    """Write every control that differs from its default into the URL (language always),
    and show that link in the sidebar with a copy button (once per run). The browser keeps
    the box equal to its own address, so a fragment's later change of the URL shows too,
    and sets the page's language (``<html lang>``) to the one drawn."""
    if st.session_state.get(LINKED):
        return
    st.session_state[LINKED] = True
    params = url_params()
    if params != st.query_params.to_dict():  # each write is a message and a history entry
        st.query_params.from_dict(params)
    with st.sidebar:
        url = f"{st.context.url or ''}?{urlencode(params)}"
        labels = {"label": tr("app.share_link"), "copy": tr("app.copy"), "copied": tr("app.copied")}
        data = {"url": url, "lang": lang(), **labels}
        SHARE(key="share_link", data=ordered("share_link", data))


def explain(err: ValueError) -> str:
    """An engine error in the current language: ``InputError`` by its key, else as raised."""
    if not isinstance(err, InputError):
        return str(err)
    fields = dict(err.fields)
    if "name" in fields:
        name = f"names.param_{fields['name']}"
        fields["name"] = tr(name) if name in catalogue() else fields["name"]
    return tr(f"errors.{err.key}", **fields)


def error_box(err: ValueError) -> None:
    """Show an engine ``ValueError`` as a translated, friendly message (no traceback)."""
    st.error(tr("app.invalid", detail=explain(err)))


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
