"""One caching style for every page: a lesson's ``run(cfg)``, cached per process by config.

A page reads its widgets, builds the lesson's frozen ``Config`` with :func:`config`, and
calls :func:`compute`; bad input from either step is shown as a translated message and
the page stops there (no traceback reaches the browser).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import streamlit as st

from .frame import error_box

C = TypeVar("C")
R = TypeVar("R")


def config(cls: Callable[..., C], **fields: object) -> C:
    """``cls(**fields)``, or a translated message and the end of this run if it is invalid."""
    try:
        return cls(**fields)
    except ValueError as err:
        error_box(err)
        st.stop()


def compute(run: Callable[[C], R], cfg: C, *, max_entries: int = 64) -> R:
    """``run(cfg)``, cached by the (hashable, frozen) config across sessions of this process."""
    try:
        return st.cache_data(run, max_entries=max_entries, show_spinner=False)(cfg)
    except ValueError as err:
        error_box(err)
        st.stop()
