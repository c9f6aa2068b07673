"""Moving between pages: a key left behind by one page's widget never breaks another page."""

import pytest

from ui import keys

from .helpers import PAGES, ROOT, assert_clean, own, run_page


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
            options = own(at)[keys.OPTIONS].get(widget.key) if kind != "slider" else None
            if options:
                widget.set_value(options[-1])
            elif kind == "slider":
                widget.set_value(widget.max)
            at.run()
            assert_clean(at)
    at.switch_page(PAGES[second])
    at.run()
    assert_clean(at)


def test_every_script_in_pages_is_a_page_or_beside_one():
    """A script in pages/ is a page of app.py's navigation, or one of page X's sections
    beside it, named ``X_<concern>.py`` (``X_views.py``, ``X_sinks.py``)."""
    pages = set(PAGES.values())
    for path in ROOT.glob("pages/*/*.py"):
        script = path.relative_to(ROOT).as_posix()
        if path.name != "__init__.py" and script not in pages:
            assert any(script.startswith(page.removesuffix(".py") + "_") for page in pages), script
