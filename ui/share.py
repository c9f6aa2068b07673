"""The share link: this view's URL, every control off its default, in the address bar and
in the sidebar with a copy button; long texts packed, so that no link is over 8,000 bytes
(ui/url_pack.py)."""

from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

from .components import component, ordered
from .keys import BOUND, LANG, LINKED, URL_KEPT, own
from .language import lang, tr
from .layout import presenting
from .url_pack import MAX_LINK, fit, unpack

SHARE = component("attnviz.share", "share")


def _text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def view_params() -> dict[str, str]:
    """This view's controls as a link names them, plain: every control of the run off its
    default, the language always (each with the value it was drawn with: ui.url_values)."""
    bound = own().get(BOUND, {})
    return {k: _text(v) for k, (default, v) in bound.items() if k == LANG or v != default}


def url_params() -> dict[str, str]:
    """The URL of this view (:func:`view_params`), long texts packed, at most 8,000 bytes
    with its address (``ui.url_pack.fit``)."""
    return fit(view_params())[0]


def same_view(a: dict[str, str], b: dict[str, str]) -> bool:
    """Whether two links name the same view, each plain or packed."""
    return said(unpack(a)[0]) == said(unpack(b)[0])


def said(url: dict[str, str]) -> dict[str, str]:
    """The view a URL names: its parameters less those that spell out a control's default.
    A link that sets every control (the tour's) names the same view as the page's own URL;
    writing that URL over it would add a history entry, and Back would stay on the page."""
    bound = own().get(BOUND, {})
    return {k: v for k, v in url.items() if k == LANG or k not in bound or v != _text(bound[k][0])}


def keep_url(params: dict[str, str]) -> None:
    """Write ``params`` (:func:`url_params`) into the address bar where it names another
    view than the address does. Each write is a message and a history entry, so the same
    view in another form (a long text not packed: a link given out before packing) is
    written over, packed, only by the session's first run: written over later, when Back
    returned to it, Back would stay on the page."""
    query = st.query_params.to_dict()
    if params == said(query) or (own().get(URL_KEPT) and same_view(params, query)):
        return
    st.query_params.from_dict(params)


def share_link() -> None:
    """Write every control that differs from its default into the URL (language always),
    and show that link in the sidebar with a copy button (once per run). The browser keeps
    the box equal to its own address, so a fragment's later change of the URL shows too,
    and sets the page's language (``<html lang>``) to the one drawn. In presentation mode
    the teacher ticks whether the link opens in presentation mode too (ui/share.js)."""
    if own().get(LINKED):
        return
    own()[LINKED] = True
    params, cut = fit(view_params())
    keep_url(params)
    own()[URL_KEPT] = True
    with st.sidebar:
        url = f"{st.context.url or ''}?{urlencode(params)}"
        labels = {"label": tr("app.share_link"), "copy": tr("app.copy"), "copied": tr("app.copied")}
        present = {"present": presenting(), "keepPresent": tr("app.share_present")}
        data = {"url": url, "lang": lang(), **labels, **present}
        SHARE(key="share_link", data=ordered("share_link", data))
        for key, (kept, total) in cut.items():
            st.caption(tr("app.link_cut", name=key, kept=kept, total=total, limit=MAX_LINK))
