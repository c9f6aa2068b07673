"""Whose fault an error is decides what the page shows: a student's bad input its message,
a tie or a divergence its own path, and anything else the app's error with an id that the
server's log holds with its traceback (never as the student's input, never a traceback)."""

from __future__ import annotations

import dataclasses
import logging
import re

import pytest

from attnviz.errors import InputError
from attnviz.i18n import t
from attnviz.lessons import block_anatomy, tour
from tests.app.helpers import assert_clean, run_page
from ui import messages

FAULT = re.compile(r"\b([0-9a-f]{8})\b")


@pytest.fixture
def logged():
    """The records the app's error log writes while a test runs."""
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append
    messages.log.addHandler(handler)
    yield records
    messages.log.removeHandler(handler)


def _fault(at, lang: str, logged: list) -> str:
    """The id of the page's one app error, checked against its text and the log."""
    assert_clean(at)
    boxes = [e.value for e in at.error]
    assert len(boxes) == 1, boxes
    ref = FAULT.search(boxes[0]).group(1)
    assert boxes[0] == t("app.fault", lang, id=ref)
    assert [r.exc_info is not None and ref in r.getMessage() for r in logged] == [True]
    return ref


@pytest.mark.parametrize("error", [TypeError, ValueError])
def test_a_lesson_s_bug_is_the_app_s_error_with_an_id_never_the_student_s_input(
    monkeypatch, logged, error
):
    def broken(cfg):
        raise error("a bug in the lesson")

    monkeypatch.setattr(block_anatomy, "run", broken)
    at = run_page("block_anatomy", lang="ja")
    _fault(at, "ja", logged)
    assert "a bug in the lesson" not in str([e.value for e in at.error])


def test_a_student_s_bad_input_shows_its_message(monkeypatch, logged):
    def refused(cfg):
        raise InputError("text must contain at least 1 token", "no_tokens", hi=64)

    monkeypatch.setattr(block_anatomy, "run", refused)
    at = run_page("block_anatomy", lang="en")
    assert_clean(at)
    detail = t("errors.no_tokens", "en", hi=64)
    assert [e.value for e in at.error] == [t("app.invalid", "en", detail=detail)]
    assert not logged


def test_a_value_error_in_a_tour_question_is_no_tie(monkeypatch, logged):
    def broken(cfg, r, lang, seed):
        raise ValueError("S4: a bug, not a tie")

    monkeypatch.setitem(tour.ASKS, "S4", dataclasses.replace(tour.ASKS["S4"], ask=broken))
    at = run_page("tour", lang="en", stop="S4")
    _fault(at, "en", logged)
    assert t("tour.tied", "en") not in [i.value for i in at.info]


def test_a_bug_inside_a_fragment_is_the_app_s_error(monkeypatch, logged):
    """The multi-head page's fragment (ui.fragment) ends its runs as a page's frame does."""
    at = run_page("multihead", lang="en")
    assert_clean(at)
    from pages.attention import multihead_views

    def broken(*args, **kwargs):
        raise KeyError("a bug in the fragment")

    monkeypatch.setattr(multihead_views, "select", broken)
    at.run()
    _fault(at, "en", logged)
