"""A class in Chromium, in Japanese: the teacher at 1280 × 720 starts a class from the tour in
presentation mode; three students at 390 × 844 join by the student link, vote, and the
teacher's count reaches 3; round 1 closes, round 2 opens and every phone follows; the reveal
draws both rounds and the figure on every screen; a reload keeps a student's vote and the
teacher's controls, and no URL ever carries the teacher's key. Screenshots of each phase go to
artifacts/class-*.png."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from attnviz.i18n import plain, t

from .conftest import ARTIFACTS, assert_clean, open_app, start_server

MAIN = "[data-testid=stMain]"
FOLLOW_MS = 2_500  # a student's screen follows within 2 s (+ the page's own drawing)


def ja(key: str, **fields) -> str:
    return plain(t(key, "ja", **fields))


@pytest.fixture(scope="module")
def class_server(tmp_path_factory):
    path = tmp_path_factory.mktemp("classes") / "classes.sqlite3"
    proc, url = start_server(env={"ATTNVIZ_STORE": f"sqlite:///{path}"})
    yield url
    proc.terminate()
    proc.wait(timeout=20)


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"class-{name}.png"), full_page=False)


def click(page, label: str) -> None:
    page.locator(MAIN).get_by_role("button", name=label).click()


@pytest.mark.browser
def test_a_class_of_three_votes_twice_in_japanese(class_server, browser):
    teacher_ctx = browser.new_context(viewport={"width": 1280, "height": 720}, locale="ja-JP")
    teacher = teacher_ctx.new_page()
    teacher.errors = []
    teacher.on("pageerror", lambda e: teacher.errors.append(str(e)))
    open_app(teacher, f"{class_server}/tour?lang=ja&present=true")
    teacher.locator("[data-testid=stSidebar]").get_by_role(
        "button", name=ja("classroom.start")
    ).click()
    teacher.locator("[data-testid=stSidebar]").get_by_text(ja("classroom.show_qr")).click()
    link_box = teacher.locator(MAIN).get_by_text(re.compile(r"/classroom\?class=\w+$"))
    expect(link_box).to_be_visible(timeout=30_000)
    expect(teacher.locator(f"{MAIN} [data-testid=stImage] img")).to_be_visible()
    link = link_box.inner_text().strip()
    code = link.rsplit("=", 1)[1]
    assert "key" not in link and "key=" not in teacher.url
    shot(teacher, "1-teacher-code")
    teacher.locator(MAIN).get_by_text(ja("classroom.to_tour", stop="S1")).click()
    expect(teacher.get_by_text(ja("classroom.voted_round1", n=0).replace("**", ""))).to_be_visible(
        timeout=30_000
    )

    phones = []
    for _ in range(3):
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="ja-JP")
        phone = ctx.new_page()
        phone.errors = []
        phone.on("pageerror", lambda e, p=phone: p.errors.append(str(e)))
        open_app(phone, link)
        phones.append(phone)
    assert all(p.url.endswith(f"class={code}") or code in p.url for p in phones)

    def vote(phone, i: int) -> None:
        options = phone.locator(f"{MAIN} [data-testid=stRadio] [role=radiogroup] label")
        expect(options.first).to_be_visible(timeout=FOLLOW_MS + 30_000)
        options.nth(i).click()
        expect(phone.locator(MAIN).get_by_text("✓")).to_be_visible(timeout=30_000)

    for phone, i in zip(phones, (1, 1, 2), strict=True):
        vote(phone, i)
    shot(phones[0], "2-phone-round1")
    voted = ja("classroom.voted_round1", n=3).replace("**", "")
    expect(teacher.locator(MAIN).get_by_text(voted)).to_be_visible(timeout=FOLLOW_MS)
    teacher.locator(MAIN).get_by_text(ja("classroom.show_counts")).click()
    expect(teacher.locator(MAIN).get_by_text("A: 0 · B: 2 · C: 1")).to_be_visible(timeout=FOLLOW_MS)
    shot(teacher, "3-teacher-round1")

    click(teacher, ja("classroom.close_round1"))
    discuss = ja("classroom.discuss")[:12]
    for phone in phones:
        expect(phone.locator(MAIN).get_by_text(discuss)).to_be_visible(timeout=FOLLOW_MS + 5_000)
    shot(phones[0], "4-phone-discuss")
    shot(teacher, "4-teacher-discuss")
    click(teacher, ja("classroom.open_round2"))
    for phone, i in zip(phones, (2, 2, 1), strict=True):
        expect(phone.locator(MAIN).get_by_text(ja("classroom.vote_round2"))).to_be_visible(
            timeout=FOLLOW_MS + 5_000
        )
        vote(phone, i)
    voted = ja("classroom.voted_round2", n=3).replace("**", "")
    expect(teacher.locator(MAIN).get_by_text(voted)).to_be_visible(timeout=FOLLOW_MS)

    click(teacher, ja("tour.reveal"))
    expect(teacher.locator(f"{MAIN} .js-plotly-plot")).to_have_count(2, timeout=60_000)
    teacher.locator(f"{MAIN} .js-plotly-plot").first.scroll_into_view_if_needed()
    shot(teacher, "5-teacher-reveal")
    for phone in phones:
        expect(phone.locator(f"{MAIN} .js-plotly-plot")).to_have_count(2, timeout=30_000)
        assert_clean(phone)
    phones[0].locator(f"{MAIN} .js-plotly-plot").first.scroll_into_view_if_needed()
    shot(phones[0], "5-phone-reveal")
    # a reload keeps the student: the same vote, by the cookie
    phones[1].reload()
    expect(phones[1].locator(f"{MAIN} .js-plotly-plot")).to_have_count(2, timeout=60_000)
    assert phones[1].locator(MAIN).get_by_text(re.compile("不正解|正解です")).count() >= 1
    # the projector's page reloaded: still the teacher's (the key from the browser's cookie,
    # never from the URL), still revealed
    teacher.reload()
    expect(teacher.locator(f"{MAIN} .js-plotly-plot")).to_have_count(2, timeout=60_000)
    expect(
        teacher.locator(MAIN).get_by_text(ja("classroom.panel_title", code=code))
    ).to_be_visible()
    assert "key" not in teacher.url
    assert_clean(teacher)
