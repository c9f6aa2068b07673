"""The tour with a keyboard (ui/tour_keys.js): the skip link to the question, ↓ from the first
choice, the focus on a new verdict, and a linked stop's question brought into view."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from .keys import TOUR_ANSWERED, own
from .language import tr

KEYS = st.components.v2.component(
    "attnviz.tour_keys", js=(Path(__file__).parent / "tour_keys.js").read_text(encoding="utf-8")
)


def answered() -> None:
    """One more answer or reveal: the verdict it draws takes the keyboard's focus."""
    own()[TOUR_ANSWERED] = own().get(TOUR_ANSWERED, 0) + 1


def keyboard(land: bool) -> None:
    """Draw the component; ``land``: bring the question into view if it is below the screen."""
    data = dict(skip=tr("tour.skip"), answered=own().get(TOUR_ANSWERED), land=land)
    KEYS(key="tour_keys", data=data)
