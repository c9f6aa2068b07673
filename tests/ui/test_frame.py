"""The frame's reading of the page asked for, under a server's base URL path."""

from types import SimpleNamespace

import pytest

from ui import frame


@pytest.mark.parametrize(
    ("url", "base", "asked"),
    [
        ("http://h:8501/", "", ""),
        ("http://h:8501", "", ""),
        ("http://h:8501/nosuch", "", "nosuch"),
        ("http://h/attnviz/", "attnviz", ""),
        ("http://h/attnviz/multihead", "/attnviz/", "multihead"),
        ("http://h/attnviz/home", "attnviz", "home"),
        ("http://h/attnvizz/x", "attnviz", "attnvizz/x"),  # a path merely starting so
        (None, "", ""),  # no browser (AppTest)
    ],
)
def test_the_page_asked_for_is_the_path_under_the_base_path(monkeypatch, url, base, asked):
    monkeypatch.setattr(frame.st, "context", SimpleNamespace(url=url))
    monkeypatch.setattr(frame.st, "get_option", lambda name: base)
    assert frame.asked_path() == asked


def test_a_component_s_data_is_numbered_anew_only_when_it_changes(monkeypatch):
    """ui/common.js draws only data numbered above what it shows: each change of a
    component's data must number higher, equal data keep its number (no redraw), each
    component counts for itself, and one session keeps one id."""
    monkeypatch.setattr(frame.st, "session_state", {})
    a, b = {"lang": "ja", "url": "?lang=ja"}, {"lang": "en", "url": "?lang=en"}
    given = (a, a, b, a)
    seen = [frame.ordered("share", d) for d in given]
    assert [s["order"][1] for s in seen] == [1, 1, 2, 3]
    assert [{k: v for k, v in s.items() if k != "order"} for s in seen] == list(given)
    assert frame.ordered("map", a)["order"][1] == 1
    assert len({s["order"][0] for s in seen}) == 1
    monkeypatch.setattr(frame.st, "session_state", {})  # another session: another id
    assert frame.ordered("share", a)["order"][0] != seen[0]["order"][0]
