"""Every page, a control set by hand after another view, renders exactly what the same link
opened first renders: a drawing shared between sessions (ui.drawn) whose key missed a value
the control moves would show the view before it. One process, as a server is: the link is
opened with the process's caches emptied, as a student's first visit finds them."""

from __future__ import annotations

import importlib
import json

import pytest
from streamlit.testing.v1.element_tree import Widget

from tests.app.helpers import _elements, assert_clean, own, run_page
from ui import keys

compute_module = importlib.import_module("ui.compute")
drawn_module = importlib.import_module("ui.drawn")
fingerprint_module = importlib.import_module("ui.fingerprint")

# page → the controls set by hand, one after the other: (kind, key, value); None: the next
# option (a select) or the other end (a slider)
BY_HAND = {
    "block_anatomy": [("radio", "norm", None)],
    "depth_gradients": [("radio", "param", None)],
    "equivariance": [("selectbox", "perm", None)],
    "multihead": [("slider", "head", 2), ("radio", "show", None)],
    "positional": [("selectbox", "kind", None)],
    "real_model": [("slider", "head", 2)],
    "saturation": [("select_slider", "D", None), ("slider", "N", None)],
    "scoring": [("selectbox", "score", None)],
    "tour": [("radio", "stop", None)],
    "training_race": [("radio", "task", None)],
}


def empty_caches(monkeypatch) -> None:
    """The process's shared results and drawings emptied, as a new server has them."""
    monkeypatch.setattr(compute_module, "_results", type(compute_module._results)())
    monkeypatch.setattr(drawn_module, "_drawn", type(drawn_module._drawn)())
    monkeypatch.setattr(drawn_module, "_held", [0])
    monkeypatch.setattr(fingerprint_module, "_registered", {})


HIDDEN = ("iframe",)  # a script that writes the URL: no part of what a student sees


def shown(at) -> list:
    """Everything the page shows, in order, but its controls: each element's message (a
    component's data without its ``order``, which counts the session's changes of it)."""
    found = []
    for el in _elements(at.main):
        if isinstance(el, Widget) or not hasattr(el, "proto") or el.type in HIDDEN:
            continue
        if el.type == "bidi_component":
            data = json.loads(el.proto.json)
            data.pop("order", None)
            found.append((el.type, el.proto.component_name, data))
        else:
            found.append((el.type, el.proto.SerializeToString(deterministic=True)))
    return found


def set_by_hand(at, kind: str, key: str, value: object) -> None:
    widget = getattr(at, kind)(key=key)
    if value is None and kind == "slider":
        value = widget.min if widget.value != widget.min else widget.max
    elif value is None:
        options = list(own(at)[keys.OPTIONS][key])
        value = options[(options.index(widget.value) + 1) % len(options)]
    widget.set_value(value)
    at.run()
    assert_clean(at)


@pytest.mark.parametrize("page", sorted(BY_HAND))
def test_a_control_set_by_hand_shows_what_its_link_opens(page, monkeypatch):
    empty_caches(monkeypatch)
    at = run_page(page)
    assert_clean(at)
    for kind, key, value in BY_HAND[page]:
        before = shown(at)
        set_by_hand(at, kind, key, value)
        by_hand, params = shown(at), dict(at.query_params)
        assert by_hand != before, f"{kind} {key}: nothing changed"
        empty_caches(monkeypatch)
        link = run_page(page, **params)
        assert_clean(link)
        opened = shown(link)
        differ = [a[0] for a, b in zip(opened, by_hand, strict=False) if a != b]
        assert opened == by_hand, f"{page}: {kind} {key} set by hand, {params}: {differ} differ"
