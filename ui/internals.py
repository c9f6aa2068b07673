"""Every private Streamlit internal the app relies on, in one place; nothing else in the app
imports from ``streamlit.runtime`` or reads a private attribute. Each is here because no
public API of Streamlit 1.67 serves, and tests/ui/test_internals.py fails, naming it, when
an upgrade changes what it relies on.

- ``fresh_server_first_run``: ``PagesManager.uses_pages_directory``. A folder ``pages/``
  beside app.py (the design's layout) makes a fresh server's first run use Streamlit's old
  multipage discovery, which finds no page for a deep link. ``st.navigation`` clears the
  flag only once it is called, after that run has already gone wrong; clearing it first
  and reloading the browser once (ui.navigation.reopen_link) is the only way round.
- ``history_run``: the run context's ``is_history_navigation``. Whether the browser's back
  or forward button started this run (its URL then wins over the session's controls);
  ``st.context`` and ``st.query_params`` do not tell.
- ``rerun_pending``: the run context's ``script_requests`` (``_state``, ``_rerun_data``) and
  Streamlit's own test of them. A class's poll waits inside its fragment's run for a change
  and must end at once when the student acts. Streamlit ends a run only at its next
  element call; calling one each tick would send a message per tick per student.
- ``server_log``: ``streamlit.logger.get_logger``. A logger with the server log's format
  and level (the ``logger.*`` options), as Streamlit's own lines; the standard ``logging``
  module leaves an app's logger without a handler.

And one of Plotly's:

- ``Document``: a ``plotly.basedatatypes.BaseFigure`` whose ``__init__`` is never called.
  ``st.plotly_chart`` takes a figure's ``to_dict()`` as it is, but validates a dict by
  building a ``go.Figure`` from it, and refuses a dict with no traces (a figure of shapes
  alone). A document built once per process (ui.drawn) would then pay for that validation
  per chart per rerun, where a ``Document`` pays almost nothing (bench/bench_plot_document.py
  measures both; its figures are in bench/README.md). Plotly has no public figure that skips
  validation.
"""

from __future__ import annotations

import logging

from plotly.basedatatypes import BaseFigure
from streamlit.logger import get_logger
from streamlit.runtime.pages_manager import PagesManager
from streamlit.runtime.scriptrunner import get_script_run_ctx


def fresh_server_first_run() -> bool:
    """True once per process, in a fresh server's first run, which Streamlit's old ``pages/``
    discovery runs; from then on ``st.navigation`` alone names the pages."""
    if not PagesManager.uses_pages_directory:
        return False
    PagesManager.uses_pages_directory = False
    return True


def history_run() -> bool:
    """True in a run that the browser's back or forward button started."""
    ctx = get_script_run_ctx()
    return bool(ctx and ctx.is_history_navigation)


def rerun_pending() -> bool:
    """Whether a rerun that must not wait is pending for this session: a widget changed,
    the page reloaded (not a fragment's own next run, which queues behind this one). True
    if this Streamlit keeps its requests otherwise: a caller then waits no longer."""
    requests = getattr(get_script_run_ctx(), "script_requests", None)
    try:  # Streamlit's own test of a pending request (script_requests.py)
        from streamlit.runtime.scriptrunner_utils.script_requests import (
            ScriptRequestType,
            _fragment_run_should_not_preempt_script,
        )

        if requests._state == ScriptRequestType.CONTINUE:
            return False
        data = requests._rerun_data
        return not (
            requests._state == ScriptRequestType.RERUN
            and _fragment_run_should_not_preempt_script(
                data.fragment_id_queue, data.is_fragment_scoped_rerun
            )
        )
    except (AttributeError, ImportError):  # another Streamlit: never hold
        return True


def server_log(name: str) -> logging.Logger:
    """A logger that writes to the server's log as Streamlit's own lines do."""
    return get_logger(name)


class Document(BaseFigure):
    """A figure's plotly.js document, handed to ``st.plotly_chart`` as it is: its
    ``to_dict()`` is the document, shared and only read (BaseFigure's own state, its
    validators, is never built)."""

    def __init__(self, document: dict):  # BaseFigure.__init__ left out: no validators
        self._document = document

    def to_dict(self) -> dict:
        return self._document
