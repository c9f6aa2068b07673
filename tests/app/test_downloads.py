"""Every download button names what it holds in the page's language, never a file name."""

import re

import pytest

from .helpers import PAGES, assert_clean, run_page

OPEN = {"multihead": dict(follow="true", qkview="true"), "real_model": dict(follow="true")}
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
FULL_WIDTH = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]")  # （）、。 too


@pytest.mark.parametrize("lang", ["ja", "en"])
# (the class page's one download, the teacher's summary: tests/app/test_classroom_page.py)
@pytest.mark.parametrize(
    "page", sorted(set(PAGES) - {"home", "tour", "training_race", "classroom"})
)
def test_download_buttons_say_what_they_hold(page, lang):
    at = run_page(page, lang=lang, **OPEN.get(page, {}))
    assert_clean(at)
    labels = [e.proto.label for e in at.get("download_button")]
    assert labels, page
    assert len(set(labels)) == len(labels), labels  # two buttons, two names
    for label in labels:
        assert "_" not in label, label  # head1_weights, grad_trend_D128: file names
        if lang == "ja":
            what = label.removesuffix("を CSV でダウンロード").removesuffix("を PNG でダウンロード")
            assert what != label and JAPANESE.search(what), label
            # a space before を only after a Latin letter, digit or symbol (行 i を, 重みを)
            assert what.endswith(" ") == (not FULL_WIDTH.match(what.rstrip()[-1])), label
