"""The suite's two tiers: ``-m "not slow"`` skips what starts a browser, a container, a
server under load or a fresh venv, for a quick run while developing; CI runs everything."""

import os

import pytest

# a shared drawing that reads a value no key stands for raises (ui.fingerprint), as does a
# shared result that ui.frozen cannot freeze, instead of being built unshared
os.environ["ATTNVIZ_STRICT_KEYS"] = "1"

SLOW_MARKERS = ("browser", "docker")  # they start a server and Chromium, or a container


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if any(item.get_closest_marker(name) for name in SLOW_MARKERS):
            item.add_marker(pytest.mark.slow)
