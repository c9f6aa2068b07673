"""The class page and the teacher's panel on the tour (AppTest, both languages): a class run
through its two rounds and the reveal; the teacher's key only in the session; a wrong key, a
forged vote, an unreachable store, each with a message and nothing changed; one student never
sees another's vote."""

from __future__ import annotations

import pytest

from attnviz.classroom import open_store
from ui import classroom, keys

from .helpers import assert_clean, own, run_page


@pytest.fixture(autouse=True)
def store_file(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path}/classes.sqlite3"
    monkeypatch.setenv("ATTNVIZ_STORE", url)
    classroom._store.clear()
    yield url
    classroom._store.clear()


def button(at, start: str):
    return next(b for b in at.button if b.label.startswith(start))


def ballot(at):
    return next(r for r in at.radio if str(r.key).startswith("class_vote"))


def texts(at) -> list[str]:
    return [
        x.value
        for kind in ("markdown", "success", "info", "warning", "error")
        for x in at.get(kind)
    ]


def start_class(lang: str = "en"):
    at = run_page("tour", lang, present="true")
    label = "Start a class" if lang == "en" else "クラス投票を始める"
    next(b for b in at.sidebar.button if b.label == label).click()
    at.run()
    assert_clean(at)
    return at, own(at)[keys.CLASS_TEACHER]


def join(code: str, lang: str):
    at = run_page("classroom", lang, **{"class": code})
    assert_clean(at)
    return at


def vote(at, i: int) -> None:
    ballot(at).set_value(ballot(at).options[i])
    at.run()
    assert_clean(at)


def test_a_class_votes_twice_and_sees_both_rounds_revealed():
    teacher, t = start_class("en")
    code = t["code"]
    assert any(f"Class {code}" in m for m in texts(teacher))
    students = [join(code, lang) for lang in ("ja", "en", "ja")]
    # the class follows the teacher to S1, each student in their own language, the same choices
    assert ballot(students[0]).options[0].startswith("A. ")
    assert [o[:2] for o in ballot(students[0]).options] == [
        o[:2] for o in ballot(students[1]).options
    ]
    for s, i in zip(students, (1, 1, 2), strict=True):
        vote(s, i)
    assert any("を受け付けました" in x for x in texts(students[0]))
    assert any("is counted" in x for x in texts(students[1]))
    teacher.run()
    assert "Round 1: **3** voted" in texts(teacher)
    assert not any(x.startswith("A: ") for x in texts(teacher))  # behind the toggle
    teacher.toggle(key=keys.CLASS_COUNTS).set_value(True).run()
    assert "A: 0 · B: 2 · C: 1 · D: 0" in texts(teacher)
    vote(students[2], 1)  # a change of mind, before the round closes
    teacher.run()
    assert "A: 0 · B: 3 · C: 0 · D: 0" in texts(teacher)

    button(teacher, "Close round 1").click().run()
    for s in students:
        s.run()
        assert not [r for r in s.radio if str(r.key).startswith("class_vote")]
    assert any("隣の人と話し合って" in x for x in texts(students[0]))
    button(teacher, "Open round 2").click().run()
    for s, i in zip(students, (2, 2, 1), strict=True):
        s.run()
        assert ballot(s).value is None  # round 2 starts blank
        vote(s, i)
    teacher.run()
    assert "Round 2: **3** voted" in texts(teacher)

    button(teacher, "Reveal").click().run()
    assert_clean(teacher)
    for s in students:
        s.run()
        assert_clean(s)
        assert len(s.get("plotly_chart")) == 2  # the two rounds, and the stop's figure
    summary = open_store().summary(code, t["key"])
    assert [(r.stop, r.voters(1), r.voters(2)) for r in summary] == [("S1", 3, 3)]


def test_the_teacher_s_key_moves_into_the_session_and_out_of_every_link():
    _, t = start_class()
    at = run_page("classroom", "en", **{"class": t["code"], "key": t["key"]})
    assert_clean(at)
    assert own(at)[keys.CLASS_TEACHER] == t
    assert "key" not in at.query_params
    # (a fresh server's first run reloads the browser at the link it opened, key and all:
    # app.py's reopen_link; the next run, this page's, has taken it out)
    at.run()
    holders = [el for el in at.main if t["key"] in str(getattr(el, "proto", ""))]
    # the teacher's link (folded), and the component that writes the teacher's cookie
    assert [type(el).__name__ for el in holders] == ["UnknownElement", "Code"]
    cookie = holders[0].proto
    assert cookie.component_name.endswith("class_cookie")
    assert f'"attnviz_teach_{t["code"]}"' in cookie.json
    # the sidebar's share link and everything else there: no key
    assert not [el for el in at.sidebar if t["key"] in str(getattr(el, "proto", ""))]
    student_link = next(m for m in texts(at) if "classroom?class=" in m)
    assert t["key"] not in student_link and t["code"] in student_link
    assert any(type(el).__name__ == "Image" for el in at.main)  # the QR code
    (csv,) = [e.proto.label for e in at.get("download_button")]  # the summary, as the app names
    assert csv == "Download the summary as CSV"  # its downloads (tests/app/test_downloads.py)
    assert "key" not in at.query_params


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_wrong_or_missing_key_changes_nothing(lang):
    _, t = start_class()
    at = run_page("classroom", lang, **{"class": t["code"], "key": "forged" + t["key"][6:]})
    assert_clean(at)
    assert keys.CLASS_TEACHER not in own(at)
    said = {"en": "teacher's key is wrong", "ja": "先生用の鍵が違う"}[lang]
    assert any(said in e.value for e in at.error)
    assert ballot(at)  # a student's view, nothing more
    assert open_store().state(t["code"], fresh=0).phase == "vote1"


def test_one_student_never_sees_another_s_vote():
    _, t = start_class()
    a, b = join(t["code"], "en"), join(t["code"], "en")
    vote(a, 3)
    b.run()
    assert ballot(b).value is None
    assert not any("counted" in x or "A: " in x for x in texts(b))
    a2 = join(t["code"], "en")  # a new browser (no cookie) is a new student
    assert ballot(a2).value is None


def test_a_student_after_a_reload_keeps_the_vote_by_the_cookie():
    _, t = start_class()
    a = join(t["code"], "en")
    vote(a, 2)
    sid = own(a)[keys.CLASS_STUDENT][t["code"]]
    assert open_store().my_vote(t["code"], sid, "S1", 0, 1) is not None


def test_bad_codes_get_a_message(store_file):
    for typed, said in (("0O1", "not a class code"), ("ACDEFG", "No class has that code")):
        at = run_page("classroom", "en", **{"class": typed})
        assert_clean(at)
        assert any(said in e.value for e in at.error), [e.value for e in at.error]


def test_an_unreachable_store_leaves_the_exercise_and_says_so(monkeypatch):
    _, t = start_class()
    s = join(t["code"], "en")
    monkeypatch.setenv("ATTNVIZ_STORE", "redis://127.0.0.1:1/0")
    classroom._store.clear()
    s.run()
    assert_clean(s)
    assert any("cannot be reached" in w.value for w in s.warning)
    assert any(str(r.key).startswith("tour_pick") for r in s.radio)  # answered alone
    at = run_page("tour", "en", present="true")
    next(b for b in at.sidebar.button if b.label == "Start a class").click()
    at.run()
    assert_clean(at)
    assert any("cannot be reached" in e.value for e in at.sidebar.error)


def test_a_late_joiner_lands_on_the_current_stop_and_the_teacher_comes_back_to_a_round():
    teacher, t = start_class()
    button(teacher, "Close round 1").click().run()
    for _ in range(2):
        button(teacher, "Next").click().run()  # on to S3 without revealing S1
    assert_clean(teacher)
    late = join(t["code"], "ja")
    assert any(m.startswith("**S3**") for m in texts(late))
    assert ballot(late).value is None
    for _ in range(2):
        button(teacher, "← Previous").click().run()
    assert "Open round 2" in [b.label for b in teacher.button]  # S1 still in discussion
    late.run()
    assert any(m.startswith("**S1**") for m in texts(late))


def test_the_teacher_s_summary_per_stop_as_csv():
    from attnviz.classroom import StopSummary
    from pages.start.classroom_views import summary_csv, summary_rows

    rows = summary_rows(
        [
            StopSummary("S1", 0, "reveal", "b", ({"a": 3, "b": 1}, {"b": 3, "a": 1})),
            StopSummary("S3", 2, "vote1", "x", ({}, {})),
        ]
    )
    assert summary_csv(rows).splitlines() == [
        "stop,example,round1_voters,round1_right_pct,round2_voters,round2_right_pct",
        "S1,0,4,25.0,4,75.0",
        "S3,2,0,,0,",
    ]
