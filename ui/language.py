"""The language a page is drawn in, and its strings."""

from __future__ import annotations

import streamlit as st

from attnviz.i18n import LANGS, t

from .keys import LANG
from .this_run import once


def lang() -> str:
    """The current language, ``ja`` or ``en`` (the browser's, until one is chosen); read
    once a run after its switch is drawn (ui.this_run)."""
    return once(LANG, _chosen)


def _chosen() -> str:
    value = st.session_state.get(LANG)
    if value in LANGS:
        return value
    return "ja" if (st.context.locale or "").lower().startswith("ja") else "en"


def tr(key: str, **fields: object) -> str:
    """``key`` from the catalogue in the current language."""
    return t(key, lang(), **fields)
