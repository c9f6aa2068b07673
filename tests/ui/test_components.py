"""The components' numbering of their data (ui/common.js draws only newer data), and the KaTeX
the weight followed is typeset with."""

import re

from ui import components, steps


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


def test_data_of_the_same_objects_is_not_hashed_again_and_other_data_is(monkeypatch):
    """A payload drawn once per process comes back as the very object each rerun: its
    number holds without pickling it again; an equal copy keeps the number too (plain values
    compared as they are, others by the digest of their pickle), a changed one numbers
    higher."""
    monkeypatch.setattr(components.st, "session_state", {})
    pickled = []
    dumps = components.pickle.dumps
    monkeypatch.setattr(
        components.pickle, "dumps", lambda *a, **k: pickled.append(1) or dumps(*a, **k)
    )
    big = {"cells": tuple(range(1000)), "title": "A"}
    numbers = [
        components.ordered("map", {"map": big, "notes": ["x"]})["order"][1] for _ in range(3)
    ]
    assert numbers == [1, 1, 1] and len(pickled) == 1
    copy = {"cells": tuple(range(1000)), "title": "A"}
    assert components.ordered("map", {"map": copy, "notes": ["x"]})["order"][1] == 1
    changed = {"cells": tuple(range(1000)), "title": "B"}
    assert components.ordered("map", {"map": changed, "notes": ["x"]})["order"][1] == 2
    assert components.ordered("map", {"map": changed, "notes": ["y"]})["order"][1] == 3
    assert len(pickled) == 3  # the copy of plain values compared as they are
    import numpy as np

    a = components.ordered("arr", {"z": np.zeros(3)})["order"][1]
    assert components.ordered("arr", {"z": np.zeros(3)})["order"][1] == a  # equal: by digest
    assert components.ordered("arr", {"z": np.ones(3)})["order"][1] == a + 1
    assert len(pickled) == 6


def test_the_steps_typeset_with_the_katex_whose_style_they_carry():
    """ui/steps.js typesets with the KaTeX module Streamlit ships (found by name: one file),
    styled by the copy of that version's CSS in ui/vendor: KaTeX's classes change between
    versions (0.16 → 0.18 renamed .base), and a formula styled by another version's rules
    is set wrong. After an upgrade of Streamlit, put its KaTeX's CSS there."""
    module = steps.STREAMLIT_JS / steps.KATEX
    assert steps.KATEX and sorted(steps.STREAMLIT_JS.glob("katex.*.js")) == [module]
    version = re.search(r"version:`([\d.]+)`", module.read_text(encoding="utf-8"))[1]
    assert f"vendor/katex-{version}" in components.USES["steps"]
    css = (components.HERE / "vendor" / f"katex-{version}.css").read_text(encoding="utf-8")
    assert f'.katex-version:after{{content:"{version}"}}' in css
