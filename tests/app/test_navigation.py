"""Moving between pages: a key left behind by one page's widget never breaks another page."""

import pytest

from .helpers import PAGES, assert_clean, run_page


@pytest.mark.parametrize(
    "first,second",
    [
        ("equivariance", "real_model"),
        ("equivariance", "multihead"),
        ("real_model", "equivariance"),
        ("scoring", "multihead"),
        ("multihead", "scoring"),
    ],
)
def test_switching_pages_keeps_every_page_working(first, second):
    at = run_page(first, lang="ja")
    assert_clean(at)
    for kind in ("selectbox", "slider", "radio"):  # move every control off its default
        for widget in getattr(at, kind):
            if widget.key in ("lang",) or widget.disabled:  # as a student: not to be touched
                continue
            options = at.session_state["_url_options"].get(widget.key) if kind != "slider" else None
            if options:
                widget.set_value(options[-1])
            elif kind == "slider":
                widget.set_value(widget.max)
            at.run()
            assert_clean(at)
    at.switch_page(PAGES[second])
    at.run()
    assert_clean(at)
