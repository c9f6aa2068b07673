"""Share links of long texts (ui/url_pack.py) through the app: a packed link opens the view
that the plain one does, a link given out before packing is written over packed, a forged
value gets the usual notice and the default, and a text that cannot fit is cut with a
notice under the share link."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from attnviz.i18n import t
from attnviz.limits import MAX_TEXT_CHARS
from tests.app.helpers import component, figures, run_page
from tools.longest_link import texts
from ui.url_pack import MAX_QUERY, pack_value, unpack

LONG = texts(MAX_TEXT_CHARS)["japanese"]


def view(at) -> dict:
    """What a reader sees of a page: its inputs, texts, notices and figures."""
    return {
        "inputs": [w.value for w in at.text_input],
        "markdown": [m.value for m in at.markdown],
        "notices": [w.value for w in at.warning],
        "latex": [x.value for x in at.latex],
        "figures": figures(at),
    }


def test_a_packed_link_opens_the_view_of_the_plain_one():
    plain = run_page("multihead", "ja", text=LONG)
    packed = run_page("multihead", "ja", **{"text.z": pack_value(LONG)})
    assert not plain.exception and not packed.exception
    assert plain.text_input(key="text").value == LONG
    assert view(packed) == view(plain)
    # both now name the view packed, the old plain link written over
    assert dict(plain.query_params) == dict(packed.query_params)
    assert set(packed.query_params) == {"lang", "text.z"}
    assert unpack(dict(packed.query_params))[0]["text"] == LONG
    link = component(packed, "attnviz.share")["url"]
    assert link.endswith("?" + urlencode(dict(packed.query_params)))


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_forged_packed_value_gets_the_notice_and_the_default(lang):
    at = run_page("multihead", lang, **{"text.z": "eNrLSM3JyVcozy_KSQEAGgQEXQ"[:-3] + "$$"})
    assert not at.exception
    assert t("app.url_ignored", lang, name="text") in [w.value for w in at.warning]
    assert at.text_input(key="text").value == t("multihead.default_text", lang)
    assert "text.z" not in at.query_params  # the link no longer carries it


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_text_that_no_link_holds_is_cut_in_the_link_with_a_notice(lang):
    """2,000 random code points and a query of 200 more: packed, still over 8,000 bytes."""
    text, query = texts(MAX_TEXT_CHARS)["planes"], texts(200, seed=1)["planes"]
    at = run_page("scoring", lang, text=text, query=query)
    assert not at.exception
    assert at.text_input(key="text").value == text  # the page uses the whole text
    params = dict(at.query_params)
    assert len(urlencode(params)) <= MAX_QUERY
    kept = unpack(params)[0]["text"]
    assert 0 < len(kept) < len(text) and text.startswith(kept)
    assert unpack(params)[0]["query"] == query  # the short one whole
    notice = t("app.link_cut", lang, name="text", kept=len(kept), total=len(text), limit=8000)
    assert notice in [c.value for c in at.sidebar.caption]
