"""The way back to the tour: above a page opened from a tour stop, a link back to that stop.

The stop travels in the page's URL, as every control does (``?from=S9``, ``?from=S9-2`` on
example 2: ``attnviz.lessons.tour.origin``), so a reload, a failover to another replica and
a shared link all show the way back; a link naming no stop of the tour gets the usual
notice and no way back. A stop of the tour sets it as it is shown (its links carry it too),
and the pages after it keep it in their URLs. The stop's own page lands at the section the
stop names, once per session and stop: the first run there after the stop was shown, or
after the link was opened afresh.
"""

from __future__ import annotations

import streamlit as st

from attnviz.lessons import tour

from .keys import LANG, PRESENT, TOUR_FROM, TOUR_LANDED, TOUR_SEED, TOUR_STOP, own
from .language import lang, tr
from .layout import presenting
from .navigation import HERE, TOUR
from .url_values import from_url

LANDING = "attnviz.scroll"  # scrolls to a section; draws nothing
SCROLL = st.components.v2.component(LANDING, js=(HERE / "scroll.js").read_text(encoding="utf-8"))


def _parse(raw: str) -> str:
    return tour.origin(*tour.from_origin(raw))


def _valid(value: object) -> bool:
    try:
        return isinstance(value, str) and _parse(value) == value
    except ValueError:
        return False


def left_at(claim: str, seed: int) -> dict[str, str]:
    """The tour stop ``claim`` on example ``seed`` as the way back of the pages after it:
    the query its links add, ``{"from": …}``. Called as the stop is shown."""
    st.session_state[TOUR_FROM] = tour.origin(claim, seed)
    own()[TOUR_LANDED] = None  # the stop's link lands at its section again
    return {TOUR_FROM: st.session_state[TOUR_FROM]}


def back_to_tour(page: st.Page) -> None:
    """On a page after the tour: a link back to the stop it was left at, in the language and
    mode the reader is in now, above the page. On the stop's own page, the first run since
    (``TOUR_LANDED``) also scrolls to the section the stop names."""
    if page.url_path == "tour" or not from_url(TOUR_FROM, None, _parse, _valid):
        return
    origin = st.session_state[TOUR_FROM]
    claim, seed = tour.from_origin(origin)
    query = {LANG: lang(), TOUR_STOP: claim} | ({TOUR_SEED: str(seed)} if seed else {})
    if presenting():
        query[PRESENT] = "true"
    st.page_link(TOUR, label=tr("tour.back", claim=claim), icon="↩️", query_params=query)
    ask = tour.ASKS[claim]
    if page.url_path == ask.page and own().get(TOUR_LANDED) != origin:
        own()[TOUR_LANDED] = origin
        if ask.section:
            heading = tr(ask.section).split("{")[0]
            SCROLL(key="tour_scroll", data={"heading": heading})
