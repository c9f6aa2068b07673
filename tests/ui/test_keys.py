"""Every session-state key the app's code names lives in ui/keys.py: no page or helper reads
or writes ``st.session_state`` under a string of its own."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [ROOT / "app.py", *ROOT.glob("ui/*.py"), *ROOT.glob("pages/*/*.py")]


def is_session_state(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "session_state"


def literal_keys(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, key) of each string naming a session-state entry: state["k"], state.get("k"),
    .setdefault("k"), .pop("k"), .update(k=…) or .update({"k": …}), "k" in state."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and is_session_state(node.value):
            keys = [node.slice]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if not is_session_state(node.func.value):
                continue
            keys = node.args[:1] + [ast.Constant(k.arg) for k in node.keywords if k.arg]
            keys += [k for a in node.args if isinstance(a, ast.Dict) for k in a.keys]
        elif isinstance(node, ast.Compare) and any(is_session_state(c) for c in node.comparators):
            keys = [node.left]
        else:
            continue
        found += [
            (node.lineno, k.value)
            for k in keys
            if isinstance(k, ast.Constant) and isinstance(k.value, str)
        ]
    return found


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_session_keys_are_named_in_ui_keys(path):
    assert literal_keys(ast.parse(path.read_text())) == []


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
