"""The tour page: one stop at a time, answered before its figure is drawn; every exercise
walked for three seeds, answered right once and wrong once, against answers computed apart
(tests/lessons/tour_oracle); presenting holds the answer back; the summary links back; the
links open their page in the state they name, and that page links back to the stop."""

import dataclasses
import json
from urllib.parse import parse_qsl

import pytest

from attnviz.i18n import t
from attnviz.lessons import tour
from tests.lessons import tour_oracle as oracle
from tests.lessons.test_tour import agrees
from ui import keys

from .helpers import assert_clean, latex, own, run_page

KINDS = ("slider", "select_slider", "selectbox", "radio", "toggle", "number_input", "text_input")
FRAME = {"lang", "present"}  # the app's own controls, in the sidebar of every page
URL = ("app.url_ignored", "app.url_clamped", "app.text_cut")  # notices about a link's values
SEEDS = (0, 1, 2, 3)  # every kind of question of the stops with three kinds, and S1's four


def links(at) -> list[tuple[str, dict[str, str], str]]:
    """(url path, query parameters, label) of every page link on the page."""
    out = []
    for el in at.get("page_link"):
        out.append((el.proto.page, dict(parse_qsl(el.proto.query_string)), el.proto.label))
    return out


def as_url(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def pick(at):
    return next(r for r in at.radio if str(r.key).startswith("tour_pick"))


def button(at, key: str, **fields):
    label = t(f"tour.{key}", at.session_state[keys.LANG], **fields)
    return next(b for b in at.button if b.label == label)


def exercise_of(claim: str, lang: str, seed: int) -> tour.Exercise:
    a = tour.ASKS[claim]
    cfg = a.config(lang, seed)
    return a.ask(cfg, a.run(cfg), lang, seed)


def answer(at, choice: str) -> None:
    pick(at).set_value(choice)
    button(at, "check").click()
    at.run()


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_tour_shows_one_stop_its_question_and_no_figure_before_the_answer(lang):
    at = run_page("tour", lang=lang)
    assert_clean(at)
    stop = tour.stops(lang)[0]
    (stops,) = [r for r in at.radio if r.key == keys.TOUR_STOP]
    assert stops.options[:16] == list(tour.CLAIMS) and len(stops.options) == 17
    assert latex(at) == [stop.formula]
    assert [(p, q) for p, q, _ in links(at)] == [(stop.page, stop.query() | {"from": "S1"})]
    assert not at.get("plotly_chart")  # the figure waits for the answer
    assert len(pick(at).options) in (3, 4) and pick(at).value is None


@pytest.mark.slow  # 16 stops × 3 seeds × right and wrong: ~200 runs of the page
@pytest.mark.parametrize("seed", SEEDS)
def test_every_exercise_answered_right_and_wrong_says_so_and_draws_its_figure(seed):
    lang = ("ja", "en")[seed % 2]
    sessions = {ok: run_page("tour", lang=lang, example=seed) for ok in (True, False)}
    for claim in tour.CLAIMS:
        a = tour.ASKS[claim]
        cfg = a.config(lang, seed)
        result = a.run(cfg)
        ex = a.ask(cfg, result, lang, seed)
        assert agrees(claim, ex, oracle.right(claim, lang, seed, ex, result)), (claim, seed)
        right = ex.right
        for ok, at in sessions.items():
            next(r for r in at.radio if r.key == keys.TOUR_STOP).set_value(claim)
            at.run()
            assert_clean(at)
            options = list(ex.choices)
            choice = right if ok else next(c.key for c in options if c.key != right)
            answer(at, choice)
            assert_clean(at)
            label = dict((c.key, c.label) for c in options)
            if ok:
                said = [s.value for s in at.success]
                expected = t("tour.right", lang, answer=label[right])
            else:
                said = [e.value for e in at.error]
                expected = t("tour.wrong", lang, yours=label[choice], answer=label[right])
            assert len(said) == 1 and said[0].startswith(expected), (claim, seed, said)
            assert len(at.get("plotly_chart")) == 1, claim  # the stop's figure, in place
            assert own(at)[keys.TOUR_ANSWERS][claim]["right"] is ok


def test_presenting_holds_the_answer_until_the_teacher_reveals_it():
    at = run_page("tour", lang="ja", present="true", stop="S8", example="1")
    assert_clean(at)
    assert not [r for r in at.radio if str(r.key).startswith("tour_pick")]
    assert not at.get("plotly_chart") and not at.info
    button(at, "reveal").click()
    at.run()
    ex = exercise_of("S8", "ja", 1)
    assert ex.kind == "weights" and ex.right == "N"  # how many weights: N, one per source
    shown = t("tour.answer_is", "ja", answer=ex.label("N"))
    assert next(i.value for i in at.info).startswith(shown)
    assert len(at.get("plotly_chart")) == 1
    (link,) = links(at)
    assert link[1]["present"] == "true"  # the page opens in the mode the tour is in


def test_the_summary_counts_the_answers_and_leads_back_to_a_wrong_one():
    at = run_page("tour", lang="en", stop="S8", example="2")
    s8 = exercise_of("S8", "en", 2)
    answer(at, next(c.key for c in s8.choices if c.key != s8.right))  # wrong
    at.radio(key=keys.TOUR_STOP).set_value("S11")
    at.run()
    answer(at, exercise_of("S11", "en", 2).right)  # right
    at.radio(key=keys.TOUR_STOP).set_value("end")
    at.run()
    assert_clean(at)
    assert any(
        m.value.startswith(t("tour.score", "en", right=1, answered=2, n=16)) for m in at.markdown
    )
    back = [b for b in at.button if b.label.startswith(t("tour.back_to", "en", claim=""))]
    assert [b.label for b in back] == [t("tour.back_to", "en", claim="S8")]
    back[0].click()
    at.run()
    assert (
        at.radio(key=keys.TOUR_STOP).value == "S8"
        and at.number_input(key=keys.TOUR_SEED).value == 2
    )
    assert at.query_params["stop"] == "S8" and at.query_params["example"] == "2"
    assert [e.value for e in at.error]  # the wrong answer, on the same example, still shown


def test_another_example_moves_the_seed_and_keeps_it_in_the_url():
    at = run_page("tour", lang="ja", stop="S4")
    question = next(m.value for m in at.markdown if m.value.startswith("**問い"))
    button(at, "another").click()
    at.run()
    assert at.query_params["example"] == "1" and at.query_params["stop"] == "S4"
    assert next(m.value for m in at.markdown if m.value.startswith("**問い")) != question


def test_a_page_opened_from_a_stop_links_back_to_it_and_lands_at_its_section():
    at = run_page("tour", lang="ja", stop="S9", example="1")
    (target,) = links(at)
    assert target[1]["from"] == "S9-1"  # the way back, in the link: a reload keeps it
    for key, value in target[1].items():
        at.query_params[key] = value
    at.switch_page(tour.PAGE_FILES["scoring"])
    at.run()
    assert_clean(at)
    assert at.number_input(key="seed").value == 1  # the example's, not the tour's own control
    back = [(q, label) for p, q, label in links(at) if p == "tour"]
    assert back == [
        ({"lang": "ja", "stop": "S9", "example": "1"}, t("tour.back", "ja", claim="S9"))
    ]
    (scroll,) = [c for c in at.get("bidi_component") if c.proto.component_name == "attnviz.scroll"]
    heading = t("scoring.many_title", "ja").split("{")[0]
    assert json.loads(scroll.proto.json) == {"heading": heading}
    at.run()  # the section is landed at once: a rerun of the page stays where the reader is
    assert not [c for c in at.get("bidi_component") if c.proto.component_name == "attnviz.scroll"]


def test_a_link_from_a_stop_shows_the_way_back_in_any_session():
    """``?from=S3``, as a stop's link writes it, opened afresh (a reload, another replica, a
    shared link): the way back to S3 above the page, kept in the page's URL."""
    at = run_page("multihead", lang="en", **{"from": "S3"})
    assert_clean(at)
    assert not at.warning
    back = [(q, label) for p, q, label in links(at) if p == "tour"]
    assert back == [({"lang": "en", "stop": "S3"}, t("tour.back", "en", claim="S3"))]
    assert at.query_params["from"] == "S3"


@pytest.mark.parametrize("bad", ["S99", "S3-x", "tour"])
def test_a_link_from_no_stop_says_so_and_shows_no_way_back(bad):
    at = run_page("scoring", lang="ja", **{"from": bad})
    assert_clean(at)
    assert [w.value for w in at.warning] == [t("app.url_ignored", "ja", name="from")]
    assert not [p for p, _, _ in links(at) if p == "tour"]
    assert "from" not in at.query_params


def test_a_page_after_the_tour_keeps_its_way_back_in_its_url():
    """Opened from the sidebar after stop S4 on example 2 (no ``from`` in the link): the
    way back shows, and the page's URL names it, so the URL reopens the same view."""
    at = run_page("tour", lang="en", stop="S4", example="2")
    at.query_params.clear()
    at.switch_page(tour.PAGE_FILES["equivariance"])
    at.run()
    assert_clean(at)
    back = [q for p, q, _ in links(at) if p == "tour"]
    assert back == [{"lang": "en", "stop": "S4", "example": "2"}]
    assert at.query_params["from"] == "S4-2"


def test_a_link_that_spells_out_every_control_is_not_written_over():
    """Writing the page's own URL over a tour link adds a history entry: Back then stayed on
    the page (and dropped present=true); a link naming the defaults names the same view."""
    stop = tour.stop("S9", "ja", 0)
    at = run_page(stop.page, **stop.query(), present="true")
    assert_clean(at)
    assert dict(at.query_params.items()) == stop.query() | {"present": "true"}


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_link_opens_the_state_it_names(lang):
    """A value the page drops or clamps would show one of the app's URL notices; the page
    typesets the stop's equation, on the page or on the further page a stop names."""
    notices = tuple(t(key, lang, name="\0", value="", n="\0").split("\0")[0] for key in URL)
    opened: dict[tuple, object] = {}
    for stop in tour.stops(lang):
        shown = []
        for page, params in [(stop.page, stop.query()), *((p, dict(q)) for p, q in stop.more)]:
            key = (page, tuple(params.items()))
            if key not in opened and page not in ("real_model", "training_race"):
                at = run_page(page, **params)
                assert_clean(at)
                assert not [w.value for w in at.warning if w.value.startswith(notices)]
                assert not at.error, [e.value for e in at.error]
                widgets = {
                    w.key: w.value
                    for kind in KINDS
                    for w in getattr(at, kind)
                    if w.key not in FRAME
                }
                missing = set(widgets) - set(params)  # controls the link leaves at their default
                assert not missing, (stop.claim, missing)
                assert set(params) - FRAME <= set(widgets), (stop.claim, set(params) - set(widgets))
                for name, value in widgets.items():
                    assert as_url(value) == params[name], (stop.claim, name, value)
                opened[key] = latex(at)
            shown += opened.get(key, [])
        assert stop.formula in shown, stop.claim


def test_an_example_that_ties_two_answers_asks_nothing_and_shows_its_figure(monkeypatch):
    """An example whose answer would not be one choice alone (the exercise refuses it) says
    so in the reader's language, draws the figure and offers no form: never a traceback."""

    def tied(cfg, r, lang, seed):
        raise tour.NoQuestion("S4: two answers tie")

    monkeypatch.setitem(tour.ASKS, "S4", dataclasses.replace(tour.ASKS["S4"], ask=tied))
    at = run_page("tour", lang="ja", stop="S4")
    assert_clean(at)
    assert [i.value for i in at.info] == [t("tour.tied", "ja")]
    assert len(at.get("plotly_chart")) == 1 and not at.get("form")
