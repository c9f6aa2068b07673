"""Presentation mode: every chart's type at projector size, its own notes included."""

import pytest

from .helpers import PAGES, assert_clean, figures, run_page

SMALLEST_NOTE_PX = 16  # make_subplots' panel titles; everything else is 20 px


NO_PLOTLY = {"home", "tour", "multihead"}  # the multi-head page's maps are pictures (ui/mosaic)
NO_PLOTLY |= {"classroom"}  # a chart only on a class's revealed stop (test_classroom_page.py)


@pytest.mark.parametrize("page", sorted(set(PAGES) - NO_PLOTLY))
def test_no_chart_note_is_smaller_than_a_panel_title_when_presenting(page):
    """A note that sets its own size does not inherit the 20 px of presentation mode: the
    block's flow diagram kept its 10 px box labels on the projector."""
    at = run_page(page, lang="ja", present="true")
    assert_clean(at)
    charts = figures(at)
    assert charts, page
    for k, fig in enumerate(charts):
        assert fig["layout"]["font"]["size"] == 20, (page, k)
        small = [
            (note["text"], note["font"]["size"])
            for note in fig["layout"].get("annotations", [])
            if note.get("text") and note.get("font", {}).get("size", 20) < SMALLEST_NOTE_PX
        ]
        assert not small, (page, k, small)


@pytest.mark.parametrize(
    ("raw", "on"), [("true", True), ("1", True), ("0", False), ("False", False)]
)
def test_a_link_may_write_a_switch_as_1_or_0(raw, on):
    """A teacher who types ``?present=1`` gets the projector page, not a notice that the value
    was ignored."""
    at = run_page("saturation", lang="ja", present=raw)
    assert_clean(at)
    assert at.session_state["present"] is on
    assert not at.warning, [w.value for w in at.warning]
    charts = figures(at)
    assert (charts[0]["layout"].get("font", {}).get("size") == 20) is on
