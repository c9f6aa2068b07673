"""Messages to the reader: notices at the top of the page, engine errors in their language."""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from attnviz.errors import InputError
from attnviz.i18n import catalogue

from .keys import FIGURES, NOTES
from .language import tr


def note(message: str) -> None:
    """A warning in the notices container at the top of the page."""
    (st.session_state.get(NOTES) or st).warning(message)


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
    """Show an engine ``ValueError`` as a translated, friendly message (no traceback), in
    the column of the page's figures where it has one (ui.layout.split): the run stops
    there and the figure it replaces would have been drawn there."""
    where = st.session_state.get(FIGURES)
    ctx = get_script_run_ctx()
    if where is None or (ctx and ctx.fragment_ids_this_run):  # a fragment's run: in itself
        where = st
    where.error(tr("app.invalid", detail=explain(err)))
