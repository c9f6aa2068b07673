"""The tree's floors: pages over ui over the lessons over the pictures and formulas over the
engine. No module imports one on a floor above its own, and no modules import each other in
a circle, so each floor can be read, tested and reused without the ones above it."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FLOORS = (  # top first: a module's floor is that of the first prefix it starts with
    ("app", "pages"),
    ("ui",),
    ("attnviz.lessons",),
    ("attnviz.charts", "attnviz.formulas", "attnviz.tables", "attnviz.worked"),
    ("attnviz",),  # the engine, with its strings (i18n) that every floor reads
)


def floor(module: str) -> int:
    """0 for the top floor, len(FLOORS) - 1 for the engine."""
    for n, prefixes in enumerate(FLOORS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return n
    raise AssertionError(f"{module} is on no floor")


def modules() -> dict[str, Path]:
    found = [ROOT / "app.py"]
    found += [p for d in ("pages", "ui", "attnviz") for p in (ROOT / d).rglob("*.py")]
    names = {}
    for path in found:
        parts = path.relative_to(ROOT).with_suffix("").parts
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return names


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project's modules that ``name`` imports (absolute or relative), by their names."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    wanted = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            wanted += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            stem = ".".join(base + ([node.module] if node.module else []))
            # a submodule by its name, else the module the names come from
            wanted += [
                f"{stem}.{a.name}" if f"{stem}.{a.name}" in known else stem for a in node.names
            ]
    found = set()
    for target in wanted:
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target and target != name:
            found.add(target)
    return found


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def test_the_floors_are_all_in_use_and_the_graph_sees_the_imports():
    g = graph()
    assert {floor(m) for m in g} == set(range(len(FLOORS)))
    assert "attnviz.attention" in g["attnviz.block"]  # a relative import
    assert "attnviz.lessons.multihead" in g["pages.attention.multihead"]  # an absolute one


def test_no_module_imports_one_on_a_floor_above_it():
    up = [(a, b) for a, deps in graph().items() for b in deps if floor(b) < floor(a)]
    assert not up, up


def test_no_modules_import_each_other_in_a_circle():
    g = graph()
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        if module in path:
            raise AssertionError(" -> ".join([*path[path.index(module) :], module]))
        if module in done:
            return
        for dep in sorted(g[module]):
            visit(dep, [*path, module])
        done.add(module)

    for module in sorted(g):
        visit(module, [])
