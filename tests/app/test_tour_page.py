"""The tour: S1 → S16 in order, both languages; every link opens its page cleanly, with every
control of that page set by the link, and the page typesets the stop's equation."""

from urllib.parse import parse_qsl

import pytest

from attnviz.i18n import t
from attnviz.lessons import tour

from .helpers import assert_clean, latex, run_page

KINDS = ("slider", "select_slider", "selectbox", "radio", "toggle", "number_input", "text_input")
FRAME = {"lang", "present"}  # the app's own controls, in the sidebar of every page
URL = ("app.url_ignored", "app.url_clamped", "app.text_cut")  # notices about a link's values


def links(at) -> list[tuple[str, dict[str, str], str]]:
    """(url path, query parameters, label) of every page link on the page."""
    out = []
    for el in at.get("page_link"):
        out.append((el.proto.page, dict(parse_qsl(el.proto.query_string)), el.proto.label))
    return out


def as_url(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_tour_lists_the_claims_in_the_chapter_s_order(lang):
    at = run_page("tour", lang=lang)
    assert_clean(at)
    stops = tour.stops(lang)
    assert [s.claim for s in stops] == [f"S{k}" for k in range(1, 17)]
    assert [(page, params) for page, params, _ in links(at)] == [(s.page, s.query()) for s in stops]
    assert [f for f in latex(at)] == [s.formula for s in stops]
    claims = [m.value for m in at.markdown if m.value.startswith("**S")]
    assert [c.split("**")[1] for c in claims] == [s.claim for s in stops]
    assert all(label for *_, label in links(at))


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_link_opens_the_state_it_names(lang):
    """A value the page drops or clamps would show one of the app's URL notices."""
    notices = tuple(t(key, lang, name="\0", value="", n="\0").split("\0")[0] for key in URL)
    opened: dict[tuple, object] = {}
    for stop in tour.stops(lang):
        params = stop.query()
        key = (stop.page, tuple(params.items()))
        if key not in opened:
            at = run_page(stop.page, **params)
            assert_clean(at)
            assert not [w.value for w in at.warning if w.value.startswith(notices)]
            assert not at.error, [e.value for e in at.error]
            widgets = {
                w.key: w.value for kind in KINDS for w in getattr(at, kind) if w.key not in FRAME
            }
            missing = set(widgets) - set(params)  # controls the link leaves at their default
            assert not missing, (stop.claim, missing)
            assert set(params) - FRAME <= set(widgets), (stop.claim, set(params) - set(widgets))
            for name, value in widgets.items():
                assert as_url(value) == params[name], (stop.claim, name, value)
            opened[key] = latex(at)
        assert stop.formula in opened[key], stop.claim
