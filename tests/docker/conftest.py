"""The browser fixtures of tests/browser, for pages served by the container."""

from tests.browser.conftest import browser, page, pytest_runtest_makereport  # noqa: F401
