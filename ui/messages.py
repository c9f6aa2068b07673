"""Messages to the reader: notices at the top of the page, a student's bad input in their
language, and the app's own error with the id under which the server's log holds it."""

from __future__ import annotations

import secrets

import streamlit as st

from attnviz.errors import InputError
from attnviz.i18n import catalogue

from .internals import server_log
from .keys import FIGURES, NOTES, own
from .language import tr

log = server_log(__name__)


def note(message: str) -> None:
    """A warning in the notices container at the top of the page."""
    (own().get(NOTES) or st).warning(message)


def explain(err: InputError) -> str:
    """A student's bad input in the current language, by its key."""
    fields = dict(err.fields)
    if "name" in fields:
        name = f"names.param_{fields['name']}"
        fields["name"] = tr(name) if name in catalogue() else fields["name"]
    return tr(f"errors.{err.key}", **fields)


def _where():
    """The column of the page's figures where this run has one (ui.layout.split): the run
    stops there and the figure a message replaces would have been drawn there. A fragment's
    own run has none (ui.page_run.end_page): its message goes in the fragment."""
    return own().get(FIGURES) or st


def error_box(err: InputError) -> None:
    """Show a student's bad input as a translated, friendly message (no traceback)."""
    _where().error(tr("app.invalid", detail=explain(err)))


def app_error(err: Exception) -> str:
    """The app's own fault (no bad input, no expected outcome): its traceback in the
    server's log under a short id, and the app's error with that id in the reader's
    language (never a traceback in the browser). Returns the id."""
    ref = secrets.token_hex(4)  # 8 hex digits: a reader can read it out
    log.error("app error %s: %s", ref, type(err).__name__, exc_info=err)
    _where().error(tr("app.fault", id=ref))
    return ref
