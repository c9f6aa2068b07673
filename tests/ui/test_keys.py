"""Every session-state key the app's code names lives in ui/keys.py: no page or helper reads
or writes ``st.session_state`` (or the app's own state, ``own()``) under a string of its
own, and the app's own keys (those starting with "_") are reached through ``own()`` alone."""

import ast
from pathlib import Path

import pytest

from ui import keys

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [ROOT / "app.py", *ROOT.glob("ui/*.py"), *ROOT.glob("pages/*/*.py")]
# the names of ui/keys.py's constants for the app's own keys (OWN, their one entry, aside)
OWN_NAMES = {
    n for n, v in vars(keys).items() if n.isupper() and str(v).startswith("_") and n != "OWN"
}


def name_of(node: ast.AST) -> str | None:
    """``x`` of a name ``x`` or an attribute ``a.x``."""
    return node.id if isinstance(node, ast.Name) else getattr(node, "attr", None)


def is_own(node: ast.AST) -> bool:
    """``own()`` or ``keys.own()``: the app's own state."""
    return isinstance(node, ast.Call) and not node.args and name_of(node.func) == "own"


def is_streamlit_state(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "session_state"


def is_session_state(node: ast.AST) -> bool:
    return is_streamlit_state(node) or is_own(node)


def named_keys(tree: ast.AST, state=is_session_state) -> list[tuple[int, ast.AST]]:
    """(line, key expression) of each key a session-state entry is named by: state["k"],
    state.get("k"), .setdefault("k"), .pop("k"), .update(k=…) or .update({"k": …}),
    "k" in state."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and state(node.value):
            named = [node.slice]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if not state(node.func.value):
                continue
            named = node.args[:1] + [ast.Constant(k.arg) for k in node.keywords if k.arg]
            named += [k for a in node.args if isinstance(a, ast.Dict) for k in a.keys]
        elif isinstance(node, ast.Compare) and any(state(c) for c in node.comparators):
            named = [node.left]
        else:
            continue
        found += [(node.lineno, k) for k in named if k is not None]
    return found


def literal_keys(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, key) of each string naming a session-state entry."""
    return [
        (line, k.value)
        for line, k in named_keys(tree)
        if isinstance(k, ast.Constant) and isinstance(k.value, str)
    ]


def own_keys_in_session_state(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, name) of each of the app's own keys named in ``st.session_state`` itself."""
    named = named_keys(tree, is_streamlit_state)
    return [(line, name_of(k)) for line, k in named if name_of(k) in OWN_NAMES]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_session_keys_are_named_in_ui_keys(path):
    assert literal_keys(ast.parse(path.read_text())) == []


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_own_keys_live_in_own_state(path):
    assert own_keys_in_session_state(ast.parse(path.read_text())) == []


def test_own_names_are_the_keys_starting_with_an_underscore():
    assert {"BOUND", "SETTLE", "LAST_H", "TOUR_ANSWERS", "CLASS_TEACHER"} <= OWN_NAMES
    assert not {"OWN", "LANG", "RACE", "TOUR_FROM", "CLASS_CODE"} & OWN_NAMES


def test_the_check_sees_each_way_of_naming_a_key():
    code = """
st.session_state["a"] = 1
st.session_state.get("b")
st.session_state.update(c=1)
st.session_state.update({"d": 1})
"e" in st.session_state
st.session_state[KEY] = 2
"""
    assert [k for _, k in literal_keys(ast.parse(code))] == ["a", "b", "c", "d", "e"]


def test_the_check_sees_own_keys_named_in_session_state():
    code = """
st.session_state[BOUND] = 1
st.session_state.get(keys.SETTLE)
SETTLED in st.session_state
own()[BOUND] = 1
own()["x"] = 2
st.session_state[LANG] = "en"
"""
    tree = ast.parse(code)
    assert [k for _, k in own_keys_in_session_state(tree)] == ["BOUND", "SETTLE", "SETTLED"]
    assert [k for _, k in literal_keys(tree)] == ["x"]
