"""The suite's two tiers: ``-m "not slow"`` is the fast tier a developer runs before every
commit (≤ 90 s on 2 cores); it skips what starts a browser, a container, a server under load,
a fresh venv or a page's script (AppTest, tests/app/), and the tests marked ``slow`` one by
one. CI runs everything."""

import os
from pathlib import Path

import pytest

# a shared drawing that reads a value no key stands for raises (ui.fingerprint), as does a
# shared result that ui.frozen cannot freeze, instead of being built unshared
os.environ["ATTNVIZ_STRICT_KEYS"] = "1"

HERE = Path(__file__).parent
SLOW_MARKERS = ("browser", "docker")  # they start a server and Chromium, or a container
SLOW_DIRS = (HERE / "app",)  # each test runs a page's script: 0.3–4 s, ~400 of them
# folders whose every test is slow: the fast tier does not even import them
ALL_SLOW = (HERE / "app", HERE / "browser", HERE / "load")


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if config.getoption("markexpr") == "not slow" and any(
        d == collection_path or d in collection_path.parents for d in ALL_SLOW
    ):
        return True
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        slow_dir = any(d in Path(item.path).parents for d in SLOW_DIRS)
        if slow_dir or any(item.get_closest_marker(name) for name in SLOW_MARKERS):
            item.add_marker(pytest.mark.slow)
