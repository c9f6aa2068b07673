"""The quick sweep of bench/bench_controls.py runs in CI: each page's controls at their last
end and every slider at its maximum, cold cache. It prints the slowest reruns (a benchmark:
no timing is asserted) and fails only if a page raises or a page was not swept."""

import pytest

from bench import bench_controls
from tests.app.helpers import PAGES


@pytest.mark.slow  # a benchmark's quick form: every control of every page
def test_quick_sweep_of_every_page_prints_its_slowest_reruns(capsys):
    pages = sorted(PAGES)
    runs = [r for page in pages for r in bench_controls.sweep(page, "en", quick=True)]
    swept = {setting.split(" ", 1)[0] for _, setting in runs}
    # the home page has no control to move; the class page's one control is a class's code,
    # which needs a running class (tests/app/test_classroom_page.py moves it)
    assert swept == set(pages) - {"home", "classroom"}, swept
    with capsys.disabled():
        print("\n" + bench_controls.report(runs, pages))
