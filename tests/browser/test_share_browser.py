"""The share link in presentation mode: the teacher chooses whether the link carries
``present=true`` to the students (it did always), by a box in the sidebar."""

import re

import pytest
from playwright.sync_api import expect

from attnviz.i18n import t

from .conftest import assert_clean, open_app

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
    page.wait_for_timeout(900)  # the box follows the address, the choice kept
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
