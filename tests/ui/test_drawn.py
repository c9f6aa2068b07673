"""ui.drawn: what a rerun draws is built once per process for what its build reads, the
language and presentation mode, and shared by every session asking for the same three; a
change of any one of them builds it again."""

import importlib
import threading

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attnviz.charts import block_anatomy as charts
from tests.app.helpers import figures, run_page

drawn_module = importlib.import_module("ui.drawn")


@pytest.fixture
def fresh(monkeypatch):
    """An empty cache; this run's language and presentation mode set by the test."""
    monkeypatch.setattr(drawn_module, "_drawn", type(drawn_module._drawn)())
    monkeypatch.setattr(drawn_module, "_held", [0])
    shown = {"lang": "en", "present": False}
    monkeypatch.setattr(drawn_module, "lang", lambda: shown["lang"])
    monkeypatch.setattr(drawn_module, "presenting", lambda: shown["present"])
    return shown


BUILT: list = []  # what the builds below built: read through functions keyed by name
GATE = threading.Event()


def build(n: int) -> dict:
    BUILT.append(n)
    return {"n": n}


def full_row(n: int) -> np.ndarray:  # 800 bytes
    BUILT.append(n)
    return np.full(100, float(n))


def slow() -> list:
    GATE.wait(1.0)
    BUILT.append(1)
    return [0]


def test_the_same_reads_language_and_mode_get_the_very_value_built_once(fresh):
    BUILT.clear()
    again = [drawn_module.drawn(lambda: build(1)) for _ in range(2)]
    assert again[0] is again[1] and BUILT == [1]  # the loop's lambda: built once
    for change in ("cfg", "lang", "present"):
        before = len(BUILT)
        cfg = ("cfg", 2) if change == "cfg" else ("cfg", 1)
        if change == "lang":
            fresh["lang"] = "ja"
        if change == "present":
            fresh["present"] = True
        other = [drawn_module.drawn(lambda cfg=cfg: build(cfg[1])) for _ in range(2)]
        assert other[0] is other[1] and len(BUILT) == before + 1, change


def test_the_least_recently_used_go_first_beyond_the_byte_budget(fresh, monkeypatch):
    monkeypatch.setattr(drawn_module, "MAX_BYTES", 2000)
    BUILT.clear()

    def row(n: int) -> np.ndarray:  # two fit, not three
        return drawn_module.drawn(lambda: full_row(n))

    first = [row(n) for n in range(3)]
    assert drawn_module._held[0] == 1600 and BUILT == [0, 1, 2]
    assert row(2) is first[2] and row(1) is first[1] and BUILT == [0, 1, 2]
    assert row(0) is not first[0] and BUILT == [0, 1, 2, 0]  # 0 was dropped, the oldest
    assert row(1) is first[1] and drawn_module._held[0] == 1600  # 2 went: 1 was used later


def test_sessions_asking_at_once_build_once(fresh):
    BUILT.clear()
    GATE.clear()
    values = []

    def one() -> None:
        values.append(drawn_module.drawn(slow))

    threads = [threading.Thread(target=one) for _ in range(8)]
    for thread in threads:
        thread.start()
    GATE.set()
    for thread in threads:
        thread.join()
    assert len(BUILT) == 1 and all(v is values[0] for v in values)


def test_a_second_session_gets_the_same_figure_without_building_it(monkeypatch):
    """Two sessions of the block anatomy page at one setting: the flow chart is built for
    the first only, and both get the same document; a new D, the other language or the
    projector's mode builds it again, and the page shows what that session asked for."""
    built = []
    flow = charts.flow

    def counted(*args, **kw):
        built.append(1)
        return flow(*args, **kw)

    monkeypatch.setattr(charts, "flow", counted)
    monkeypatch.setattr(drawn_module, "_drawn", type(drawn_module._drawn)())
    monkeypatch.setattr(drawn_module, "_held", [0])
    one = figures(run_page("block_anatomy", D=32))[0]
    two = figures(run_page("block_anatomy", D=32))[0]
    assert one == two and len(built) == 1
    for change in ({"D": 16}, {"lang": "ja"}, {"present": "true"}):
        at = run_page("block_anatomy", **({"D": 32, "lang": "en"} | change))
        other = figures(at)[0]
        assert len(built) == 2 and other != one, change
        built.clear()
        built.append(1)
    assert figures(run_page("block_anatomy", D=32))[0] == one and len(built) == 1


def two_ways() -> None:
    """The same figure drawn as a figure and as a document drawn once (AppTest's script)."""
    import plotly.graph_objects as go

    import ui

    def fig() -> go.Figure:
        f = go.Figure(go.Heatmap(z=[[0.25, 0.5], [1.0, 0.125]], x=["a", "b"], y=["c", "d"]))
        return f.update_layout(title="a title<br>on two lines", xaxis_title="x", height=300)

    ui.plot(fig(), "as_figure", "f")
    ui.plot(fig, "as_document", "f")


def test_a_document_drawn_once_is_what_streamlit_makes_of_the_figure():
    at = AppTest.from_function(two_ways).run()
    as_figure, as_document = at.get("plotly_chart")
    assert as_document.proto.spec == as_figure.proto.spec
    assert as_document.proto.config == as_figure.proto.config
