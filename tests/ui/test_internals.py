"""Each private internal in ui/internals.py still has the shape the app relies on: a
failure names the internal that an upgrade changed. And no other module reads one."""

from __future__ import annotations

import inspect
import logging
import re
from pathlib import Path

from plotly.basedatatypes import BaseFigure

from ui import internals

ROOT = Path(__file__).resolve().parents[2]


def test_pages_manager_uses_pages_directory_is_a_class_flag():
    from streamlit.runtime.pages_manager import PagesManager

    assert "uses_pages_directory" in vars(PagesManager), "PagesManager.uses_pages_directory"
    source = inspect.getsource(PagesManager.__init__)
    assert "uses_pages_directory" in source, "PagesManager.__init__ sets uses_pages_directory"


def test_the_run_context_tells_a_history_run_and_fragment_requests():
    from streamlit.runtime.scriptrunner import ScriptRunContext

    fields = inspect.signature(ScriptRunContext).parameters
    assert "is_history_navigation" in fields, "ScriptRunContext.is_history_navigation"
    assert "script_requests" in fields, "ScriptRunContext.script_requests"


def test_script_requests_keep_their_state_and_rerun_data():
    from streamlit.runtime.scriptrunner_utils import script_requests as sr

    requests = sr.ScriptRequests()
    assert requests._state == sr.ScriptRequestType.CONTINUE, "ScriptRequests._state"
    requests.request_rerun(sr.RerunData(fragment_id_queue=["f"], is_fragment_scoped_rerun=False))
    data = requests._rerun_data  # "ScriptRequests._rerun_data"
    assert requests._state == sr.ScriptRequestType.RERUN, "ScriptRequests._state"
    assert data.fragment_id_queue == ["f"], "RerunData.fragment_id_queue"
    should_not = sr._fragment_run_should_not_preempt_script
    assert should_not(["f"], False) and not should_not([], False), (
        "_fragment_run_should_not_preempt_script"
    )


def test_streamlit_s_logger_writes_with_a_handler_of_its_own():
    log = internals.server_log("tests.internals")
    assert isinstance(log, logging.Logger) and log.handlers, "streamlit.logger.get_logger"


def test_plotly_takes_a_document_figure_as_it_is():
    """st.plotly_chart's conversion (plotly.tools.return_figure_from_figure_or_data) reads a
    BaseFigure's to_dict() without validating it; BaseFigure allows a subclass that skips
    its __init__."""
    import plotly.tools

    doc = {"data": [], "layout": {"shapes": [{"type": "line", "x0": 0, "x1": 1}]}}
    figure = plotly.tools.return_figure_from_figure_or_data(
        internals.Document(doc), validate_figure=True
    )
    assert figure is doc, "plotly.tools.return_figure_from_figure_or_data(BaseFigure)"
    assert '"shapes"' in plotly.io.to_json(figure, validate=False)
    assert issubclass(internals.Document, BaseFigure)


def test_no_module_but_internals_reads_a_streamlit_internal():
    private = re.compile(r"streamlit\.(runtime|logger)|get_script_run_ctx|plotly\.basedatatypes")
    allowed = {ROOT / "ui" / "internals.py"}
    found = [
        str(path.relative_to(ROOT))
        for path in [ROOT / "app.py", *(ROOT / "ui").rglob("*.py"), *(ROOT / "pages").rglob("*.py")]
        if path not in allowed and private.search(path.read_text(encoding="utf-8"))
    ]
    assert not found, found
