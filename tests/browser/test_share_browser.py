"""The share link in presentation mode: the teacher chooses whether the link carries
``present=true`` to the students (it did always), by a box in the sidebar; and a link of a
long text given out before texts were packed (ui/url_pack.py)."""

import re
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from playwright.sync_api import expect

from attnviz.i18n import t
from tools.longest_link import texts
from ui.url_pack import unpack

from .conftest import assert_clean, open_app, wait_idle

LONG = texts(1200)["japanese"]

pytestmark = pytest.mark.browser


def test_the_teacher_chooses_whether_the_link_opens_in_presentation_mode(page, server):
    page.set_viewport_size({"width": 1280, "height": 720})
    open_app(page, f"{server}/multihead?lang=ja&present=true&H=4")
    link = page.locator(".share input[readonly]")
    view = re.compile(r"/multihead\?.*H=4")
    expect(link).to_have_value(view)
    assert "present" not in link.input_value()  # by default, the students' own view
    assert "present=true" in page.url  # the teacher's own address keeps it
    keep = page.locator(".share .keep")
    expect(keep).to_have_text(t("app.share_present", "ja"))
    keep.locator("input").check()
    expect(link).to_have_value(view)
    assert "present=true" in link.input_value()
    # the box follows the address (its timer), the choice kept
    page.evaluate("() => history.replaceState(null, '', location.href + '&probe=1')")
    expect(link).to_have_value(re.compile(r"probe=1"))
    assert "present=true" in link.input_value()
    keep.locator("input").uncheck()
    page.locator(".share button").click()
    assert "present" not in link.input_value()  # the copy is the link shown
    assert_clean(page)


def test_out_of_presentation_mode_there_is_no_choice(page, server):
    open_app(page, f"{server}/multihead?lang=en&H=4")
    page.locator(".share input[readonly]").wait_for()
    assert page.locator(".share .keep").is_hidden()
    assert page.locator(".share input[readonly]").input_value() == page.url


def test_a_link_given_out_before_packing_opens_and_is_written_over_packed(page, server):
    """An old link of a long text (plain, 12 KB) opens its view, and the address and the
    share link become the packed form; Back returns to the old address without writing over
    it again (that would add an entry and keep Back on the page), and Back once more leaves."""
    open_app(page, f"{server}/scoring?lang=en")
    old = f"{server}/multihead?" + urlencode({"lang": "ja", "text": LONG})
    open_app(page, old)
    text = page.get_by_label(t("multihead.text", "ja"), exact=True)
    expect(text).to_have_value(LONG)
    expect(page).to_have_url(re.compile(r"/multihead\?lang=ja&text\.z="))
    packed = page.url
    assert len(packed) < len(old) / 3
    link = page.locator(".share input[readonly]")
    expect(link).to_have_value(packed)
    assert unpack(dict(parse_qsl(urlsplit(packed).query)))[0]["text"] == LONG
    page.go_back()
    wait_idle(page)
    expect(text).to_have_value(LONG)
    # a rewrite would have come within the run Back started, which wait_idle waited for
    assert page.url == old
    page.go_back()
    page.get_by_text("How much does the query care").wait_for(timeout=60_000)
    assert "/scoring" in page.url
    assert_clean(page)
