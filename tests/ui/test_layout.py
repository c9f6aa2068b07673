"""The app's CSS: the class ui.number_table writes is the one ui/app.css and
ui/presenting.css style, and presentation mode adds its CSS to the app's."""

import streamlit as st

from ui import keys, layout
from ui.export import NUMBER_TABLE


def test_the_css_styles_the_number_tables_class():
    assert f".{NUMBER_TABLE} " in layout.APP_CSS
    assert f".{NUMBER_TABLE} " in layout.PRESENTING_CSS


def test_presentation_mode_adds_its_css(monkeypatch):
    drawn = []
    monkeypatch.setattr(st, "html", drawn.append)
    for on in (False, True):
        monkeypatch.setattr(st, "session_state", {keys.PRESENT: on})
        drawn.clear()
        layout.style()
        assert drawn == [layout.APP_CSS, layout.PRESENTING_CSS][: 1 + on]
