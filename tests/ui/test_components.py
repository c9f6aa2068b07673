"""The components' numbering of their data (ui/common.js draws only newer data)."""

from ui import components


def test_a_component_s_data_is_numbered_anew_only_when_it_changes(monkeypatch):
    """ui/common.js draws only data numbered above what it shows: each change of a
    component's data must number higher, equal data keep its number (no redraw), each
    component counts for itself, and one session keeps one id."""
    monkeypatch.setattr(components.st, "session_state", {})
    a, b = {"lang": "ja", "url": "?lang=ja"}, {"lang": "en", "url": "?lang=en"}
    given = (a, a, b, a)
    seen = [components.ordered("share", d) for d in given]
    assert [s["order"][1] for s in seen] == [1, 1, 2, 3]
    assert [{k: v for k, v in s.items() if k != "order"} for s in seen] == list(given)
    assert components.ordered("map", a)["order"][1] == 1
    assert len({s["order"][0] for s in seen}) == 1
    monkeypatch.setattr(components.st, "session_state", {})  # another session: another id
    assert components.ordered("share", a)["order"][0] != seen[0]["order"][0]
