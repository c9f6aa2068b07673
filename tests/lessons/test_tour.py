"""The tour's stops and exercises: S1 → S16, each with its words in both languages, a link
built from the pages' own controls, and concept questions whose right answers are measured
apart (tour_oracle) for examples 0–11; no answer by habit: over those examples no letter
and no answer text is right in more than half."""

import re
from collections import Counter

import pytest

from attnviz import formulas
from attnviz.i18n import LANGS, catalogue, t
from attnviz.lessons import depth_gradients, tour
from attnviz.lessons.tour import exercise as ex_module

from . import tour_oracle as oracle

EXAMPLES = range(12)
SLOW = pytest.mark.slow  # the oracle runs the engine apart for each example
_results: dict = {}


def asked(claim: str, lang: str, seed: int):
    """(exercise, result) of stop ``claim`` at example ``seed``, each config computed once."""
    a = tour.ASKS[claim]
    cfg = a.config(lang, seed)
    if cfg not in _results:
        _results[cfg] = a.run(cfg)
    return a.ask(cfg, _results[cfg], lang, seed), _results[cfg]


def shown(label: str, last: bool = False) -> float:
    """The number a choice's label shows: its first (or last) number."""
    found = re.findall(r"\d+(?:\.\d+)?", label.replace("−", "-"))
    value = float(found[-1] if last else found[0])
    return -value if label.lstrip().startswith("−") and not last else value


def agrees(claim: str, ex, answer) -> bool:
    """Whether the exercise's right choice names the answer measured apart."""
    label = ex.label(ex.right)
    if isinstance(answer, str):
        return ex.right == answer
    if isinstance(answer, tuple):
        return label == " × ".join(str(n) for n in answer)
    last = claim == "S12" and ex.kind == "divisor"
    return math_close(shown(label, last), answer)


def plain(text: str) -> str:
    """``text`` with the Japanese strings' no-break spaces and hyphens as plain ones."""
    return text.replace("\xa0", " ").replace("\u2011", "-")


def math_close(a: float, b: float) -> bool:
    return abs(a - b) <= 0.006 + 1e-3 * abs(b)  # labels round to two decimals


@pytest.mark.parametrize("lang", LANGS)
def test_one_stop_per_claim_in_order_with_its_words(lang):
    stops = tour.stops(lang)
    assert [s.claim for s in stops] == [f"S{k}" for k in range(1, 17)]
    for s in stops:
        assert f"tour.{s.claim.lower()}_claim" in catalogue()
        assert s.state and "{" not in s.state
        assert s.query()["lang"] == lang and s.script == tour.PAGE_FILES[s.page]


@pytest.mark.parametrize("lang", LANGS)
def test_links_carry_the_example_of_the_reader_s_language(lang):
    """Example 0 is each page's own default sentence; another seed, another sentence."""
    for s in tour.stops(lang):
        if s.page == "scoring":
            assert s.query()["text"] == t("scoring.default_text", lang)
            assert tour.stop(s.claim, lang, 1).query()["text"] == t("tour.example1_text", lang)
            assert tour.stop(s.claim, lang, 1).query()["seed"] == "1"


@pytest.mark.parametrize("seed", [0, 1, 2, 5])
def test_every_label_names_the_configuration_its_link_opens(seed):
    """The link's label says what was computed: the width, the heads and the scale of the
    link's own controls, never a fixed "D = 64"."""
    for s in tour.stops("en", seed):
        q = s.query()
        for name in ("D", "H"):
            if name in q and f"{name} = " in s.state:
                assert f"{name} = {q[name]}" in s.state, (s.claim, s.state, q)


@pytest.mark.parametrize(
    ("claim", "seed", "text"),
    [("S1", 0, "S1"), ("S16", 2**31 - 1, "S16-2147483647"), ("S9", 2, "S9-2")],
)
def test_the_way_back_names_a_stop_and_its_example(claim, seed, text):
    assert tour.origin(claim, seed) == text and tour.from_origin(text) == (claim, seed)


@pytest.mark.parametrize(
    "text", ["", "S0", "S17", "s9", "S9-", "S9-x", "S9-2147483648", "S9 ", "S９"]
)
def test_a_way_back_to_no_stop_is_refused(text):
    with pytest.raises(ValueError, match="no stop of the tour"):
        tour.from_origin(text)


def test_equations_are_the_formulas_module_s():
    by_claim = {s.claim: s.formula for s in tour.stops("en")}
    assert by_claim["S2"] == formulas.score("scaled_dot")
    assert by_claim["S3"] == formulas.SATURATION[1]
    assert by_claim["S9"] in formulas.many_queries("scaled_dot")
    assert "\\mathcal{A}_D(Q, X, X)" in by_claim["S11"]
    assert by_claim["S13"] == formulas.block("post") and by_claim["S14"] == formulas.block("pre")
    assert by_claim["S16"] == formulas.positions("sinusoidal", "add")
    assert all(by_claim[c] in formulas.multihead("scaled_dot") for c in ("S10", "S12"))


def test_the_depth_stop_links_the_training_race_first_then_the_pre_ln_block():
    """S14's verdict points at the training race, the direct evidence; S12 opens a real model."""
    by_claim = {s.claim: s for s in tour.stops("ja")}
    assert by_claim["S14"].page == "depth_gradients"
    assert [p for p, _ in by_claim["S14"].more] == ["training_race", "block_anatomy"]
    assert dict(by_claim["S14"].more[1][1])["norm"] == "pre"
    assert [p for p, _ in by_claim["S12"].more] == ["real_model"]
    assert by_claim["S9"].section == by_claim["S11"].section == "scoring.many_title"


@pytest.mark.parametrize(  # the first half covers every kind of question; CI runs both
    "seeds",
    [pytest.param(EXAMPLES[:6], id="0-5"), pytest.param(EXAMPLES[6:], id="6-11", marks=SLOW)],
)
@pytest.mark.parametrize("claim", tour.CLAIMS)
def test_every_example_s_right_answer_is_the_one_measured_apart(claim, seeds):
    """Examples 0–11, Japanese and English alternately: the right choice names what the
    engine, run apart, does; the right choice is right, every other one wrong, and the
    verdict's sentence names the right label."""
    for seed in seeds:
        lang = ("en", "ja")[seed % 2]
        ex, result = asked(claim, lang, seed)
        answer = oracle.right(claim, lang, seed, ex, result)
        assert agrees(claim, ex, answer), (claim, seed, ex.kind, ex.right, answer)
        assert 3 <= len(ex.choices) <= 4 and ex.why and ex.question
        assert ex.is_right(ex.right)
        wrong = next(c.key for c in ex.choices if c.key != ex.right)
        assert not ex.is_right(wrong)
        verdict = t("tour.wrong", lang, yours=ex.label(wrong), answer=ex.label(ex.right))
        assert plain(ex.label(ex.right)) in plain(verdict)
        assert plain(ex.label(wrong)) in plain(verdict)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("claim", tour.CLAIMS)
def test_no_answer_by_habit(claim, lang):
    """Over examples 0–11 no letter, and no answer text, is right in more than half."""
    letters, texts = Counter(), Counter()
    for seed in EXAMPLES:
        ex, _ = asked(claim, lang, seed)
        letters[ex.letter(ex.right)] += 1
        texts[ex.label(ex.right)] += 1
    assert max(letters.values()) <= len(EXAMPLES) // 2, (claim, letters)
    assert max(texts.values()) <= len(EXAMPLES) // 2, (claim, texts)


def test_the_habit_check_fails_on_a_stop_with_a_fixed_answer(monkeypatch):
    """The check above catches a stop whose right answer stands at A every time."""
    monkeypatch.setattr(
        ex_module,
        "arranged",
        lambda claim, seed, choices, right: tuple(sorted(choices, key=lambda c: c.key != right)),
    )
    a = tour.ASKS["S11"]
    letters = Counter()
    for seed in EXAMPLES:
        cfg = a.config("en", seed)
        ex = a.ask(cfg, a.run(cfg), "en", seed)
        letters[ex.letter(ex.right)] += 1
    assert letters["A"] == len(EXAMPLES)


@pytest.mark.parametrize("claim", tour.CLAIMS)
def test_a_link_reopens_the_same_order_and_another_example_changes_it(claim):
    first, r = asked(claim, "en", 4)
    a = tour.ASKS[claim]
    again = a.ask(a.config("en", 4), r, "en", 4)
    assert [c.key for c in again.choices] == [c.key for c in first.choices]
    asks = {(e.kind, e.question, e.right) for e in (asked(claim, "en", s)[0] for s in range(4))}
    assert len(asks) > 1


@pytest.mark.parametrize("claim", tour.CLAIMS)
def test_each_question_shows_the_values_it_reasons_from(claim):
    """A question about this example's words or scores shows them before it asks."""
    for seed in range(6):
        ex, r = asked(claim, "ja", seed)
        if ex.kind in ("shift", "sum", "double", "lowest", "compute", "order", "negate"):
            assert ex.given and any(tok in ex.given for tok in r.tokens), (claim, ex.kind)


def test_the_depth_stop_reads_the_depth_page_s_rule():
    """S14's directions are the depth page's words for the same ratios."""
    for seed in (0, 1):
        ex, trend = asked("S14", "ja", seed)
        name = depth_gradients.direction(trend.ratios[ex.kind])
        assert ex.right == name
        assert t(f"depth_gradients.dir_{name}", "ja") == ex.label(ex.right)
    ex, trend = asked("S14", "en", 2)
    assert ex.kind == "which" and ex.right == "pre"
    assert depth_gradients.direction(trend.ratios["pre"]) == "falls"  # as the verdict says


def test_an_exercise_with_two_equal_choices_is_refused():
    choices = [ex_module.Choice(k, k) for k in "abc"]
    with pytest.raises(ValueError, match="distinct"):
        ex_module.exercise("S1", 0, "k", "?", choices[:1] * 3, "a", "")
    same = [ex_module.Choice("a", "x"), ex_module.Choice("b", "x"), ex_module.Choice("c", "y")]
    with pytest.raises(ValueError, match="read the same"):
        ex_module.exercise("S1", 0, "k", "?", same, "a", "")


def test_the_order_puts_the_right_choice_at_each_letter_in_turn():
    choices = [ex_module.Choice(k, k) for k in "abcd"]
    for block in range(3):
        at = {
            ex_module.arranged("S5", 4 * block + s, choices, "c").index(choices[2])
            for s in range(4)
        }
        assert at == {0, 1, 2, 3}
