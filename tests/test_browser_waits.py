"""Browser tests wait on conditions, not on the clock (issue #53): no ``wait_for_timeout(``
or ``time.sleep(`` in tests/browser outside ALLOWED, the functions named there with why."""

from __future__ import annotations

import ast
from pathlib import Path

BROWSER = Path(__file__).resolve().parent / "browser"
# (file, function): why a fixed wait is right there
ALLOWED = {
    ("conftest.py", "start_server"): "a health-check poll of a server starting: no page yet",
}
FIXED = {"wait_for_timeout", "sleep"}


def fixed_waits() -> list[tuple[str, str, int]]:
    """Every call of a FIXED name in tests/browser: (file, enclosing function, line)."""
    found = []
    for path in sorted(BROWSER.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))

        def visit(node, where: str, path: Path = path) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                    visit(child, child.name)
                    continue
                if isinstance(child, ast.Call):
                    f = child.func
                    name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
                    if name in FIXED:
                        found.append((path.name, where, child.lineno))
                visit(child, where)

        visit(tree, "<module>")
    return found


def test_browser_tests_wait_on_conditions_not_on_the_clock():
    bad = [w for w in fixed_waits() if w[:2] not in ALLOWED]
    assert not bad, f"fixed waits (wait on the condition instead): {bad}"


def test_the_allowed_fixed_waits_are_still_there():
    assert {w[:2] for w in fixed_waits()} == set(ALLOWED)
