"""How a page is laid out: presentation mode (projector) and a page's two columns."""

from __future__ import annotations

import streamlit as st

from .keys import PRESENT

SPLIT_MIN_PX = 700  # narrower (1024 px with the sidebar open: 564), the two columns stack


def presenting() -> bool:
    """True in presentation mode (projector): larger type and figures."""
    return bool(st.session_state.get(PRESENT, False))


def split(spec: list[int]):
    """A page's two columns, controls and formulas beside the figures; app.py's CSS stacks
    them when they would be narrower than ``SPLIT_MIN_PX`` together (formulas cut at the
    column's edge, maps a few dozen pixels wide), whatever the window or the sidebar."""
    with st.container(key="split"):
        return st.columns(spec)
