"""The page a link asks for, under a server's base URL path."""

from types import SimpleNamespace

import pytest

from ui import navigation


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
    monkeypatch.setattr(navigation.st, "context", SimpleNamespace(url=url))
    monkeypatch.setattr(navigation.st, "get_option", lambda name: base)
    assert navigation.asked_path() == asked
