"""The share link: this view's URL, every control off its default, in the address bar and
in the sidebar with a copy button."""

from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

from .components import component, ordered
from .keys import BOUND, LANG, LINKED
from .language import lang, tr
from .layout import presenting

SHARE = component("attnviz.share", "share")


def _text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def url_params() -> dict[str, str]:
    """The URL of this view: every control of the run off its default, the language always."""
    bound = st.session_state.get(BOUND, {})
    params = {
        k: st.session_state[k]
        for k, default in bound.items()
        if k in st.session_state and (k == LANG or st.session_state[k] != default)
    }
    return {k: _text(v) for k, v in params.items()}


def said(url: dict[str, str]) -> dict[str, str]:
    """The view a URL names: its parameters less those that spell out a control's default.
    A link that sets every control (the tour's) names the same view as the page's own URL;
    writing that URL over it would add a history entry, and Back would stay on the page."""
    bound = st.session_state.get(BOUND, {})
    return {k: v for k, v in url.items() if k == LANG or k not in bound or v != _text(bound[k])}


def share_link() -> None:
    """Write every control that differs from its default into the URL (language always),
    and show that link in the sidebar with a copy button (once per run). The browser keeps
    the box equal to its own address, so a fragment's later change of the URL shows too,
    and sets the page's language (``<html lang>``) to the one drawn. In presentation mode
    the teacher ticks whether the link opens in presentation mode too (ui/share.js)."""
    if st.session_state.get(LINKED):
        return
    st.session_state[LINKED] = True
    params = url_params()
    if params != said(st.query_params.to_dict()):  # each write: a message and a history entry
        st.query_params.from_dict(params)
    with st.sidebar:
        url = f"{st.context.url or ''}?{urlencode(params)}"
        labels = {"label": tr("app.share_link"), "copy": tr("app.copy"), "copied": tr("app.copied")}
        present = {"present": presenting(), "keepPresent": tr("app.share_present")}
        data = {"url": url, "lang": lang(), **labels, **present}
        SHARE(key="share_link", data=ordered("share_link", data))
