"""Presentation mode: every chart's type at projector size, its own notes included."""

import pytest

from .helpers import PAGES, assert_clean, figures, run_page

SMALLEST_NOTE_PX = 16  # the flow's shapes beside its boxes are 19 px; most notes 20 px


NO_PLOTLY = {"home", "tour", "multihead"}  # the multi-head page's maps are pictures (ui/mosaic)


@pytest.mark.parametrize("page", sorted(set(PAGES) - NO_PLOTLY))
def test_every_chart_note_and_panel_title_is_at_projector_size_when_presenting(page):
    """A note that sets its own size does not inherit the 20 px of presentation mode: the
    block's flow diagram kept its 10 px box labels on the projector, and make_subplots'
    panel titles their 16 px under 20-px tick labels."""
    at = run_page(page, lang="ja", present="true")
    assert_clean(at)
    charts = figures(at)
    assert charts, page
    for k, fig in enumerate(charts):
        assert fig["layout"]["font"]["size"] == 20, (page, k)
        notes = [note for note in fig["layout"].get("annotations", []) if note.get("text")]
        small = [
            (note["text"], note["font"]["size"])
            for note in notes
            if note.get("font", {}).get("size", 20) < SMALLEST_NOTE_PX
        ]
        assert not small, (page, k, small)
        # a panel title sits on its panel's top edge (make_subplots' placement)
        panels = [n for n in notes if n.get("yanchor") == "bottom" and n.get("yref") == "paper"]
        assert all(n.get("font", {}).get("size", 20) == 20 for n in panels), (page, k, panels)
