"""The tour's stops and exercises: S1 → S16, each with its words in both languages, a link
built from the pages' own controls, and a question whose right answer and distractors
come from the lesson's result; checked against answers computed apart (tour_oracle)."""

import pytest

from attnviz import formulas
from attnviz.i18n import LANGS, catalogue, t
from attnviz.lessons import tour
from attnviz.lessons.tour import exercise as ex_module

from . import tour_oracle as oracle

SEEDS = (0, 1, 2)
TIE = 1e-4  # the tour's: closer values would make two answers right
FAST = [c for c in tour.CLAIMS if not tour.ASKS[c].slow]
_results: dict = {}


def asked(claim: str, lang: str, seed: int):
    """(exercise, result) of stop ``claim`` at example ``seed``, each config computed once."""
    a = tour.ASKS[claim]
    cfg = a.config(lang, seed)
    if cfg not in _results:
        _results[cfg] = a.run(cfg)
    return a.ask(cfg, _results[cfg], lang, seed), _results[cfg]


@pytest.mark.parametrize("lang", LANGS)
def test_one_stop_per_claim_in_order_with_its_words(lang):
    stops = tour.stops(lang)
    assert [s.claim for s in stops] == [f"S{k}" for k in range(1, 17)]
    for s in stops:
        for part in ("claim", "state", "ask"):
            assert f"tour.{s.claim.lower()}_{part}" in catalogue()
        assert s.query()["lang"] == lang and s.script == tour.PAGE_FILES[s.page]


@pytest.mark.parametrize("lang", LANGS)
def test_links_carry_the_example_of_the_reader_s_language(lang):
    """Example 0 is each page's own default sentence; another seed, another sentence."""
    for s in tour.stops(lang):
        if s.page == "scoring":
            assert s.query()["text"] == t("scoring.default_text", lang)
            assert tour.stop(s.claim, lang, 1).query()["text"] == t("tour.example1_text", lang)
            assert tour.stop(s.claim, lang, 1).query()["seed"] == "1"


def test_equations_are_the_formulas_module_s():
    by_claim = {s.claim: s.formula for s in tour.stops("en")}
    assert by_claim["S2"] == formulas.score("scaled_dot")
    assert by_claim["S3"] == formulas.SATURATION[1]
    assert by_claim["S9"] in formulas.many_queries("scaled_dot")
    assert "\\mathcal{A}_D(Q, X, X)" in by_claim["S11"]
    assert by_claim["S13"] == formulas.block("post") and by_claim["S14"] == formulas.block("pre")
    assert by_claim["S16"] == formulas.positions("sinusoidal", "add")
    assert all(by_claim[c] in formulas.multihead("scaled_dot") for c in ("S10", "S12"))


def test_the_depth_stop_links_the_depth_training_and_real_model_pages():
    """S14's question names the depth and training pages; S12 opens a real model's heads."""
    by_claim = {s.claim: s for s in tour.stops("ja")}
    assert by_claim["S14"].page == "depth_gradients"
    assert [p for p, _ in by_claim["S14"].more] == ["block_anatomy", "training_race"]
    assert dict(by_claim["S14"].more[0][1])["norm"] == "pre"
    assert [p for p, _ in by_claim["S12"].more] == ["real_model"]
    assert by_claim["S9"].section == by_claim["S11"].section == "scoring.many_title"


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("claim", FAST)
def test_every_exercise_s_right_answer_is_the_one_computed_apart(claim, seed):
    lang = "ja" if seed % 2 else "en"
    ex, _ = asked(claim, lang, seed)
    assert 3 <= len(ex.choices) <= 4
    assert ex.right == oracle.right(claim, lang, seed), (claim, seed, ex.question)
    assert ex.why and ex.question


@pytest.mark.slow  # the depth trend: stacks of 1 … 24 blocks, two input scales (~40 s)
@pytest.mark.parametrize("seed", SEEDS)
def test_the_depth_exercise_s_right_answer_is_the_one_computed_apart(seed):
    ex, trend = asked("S14", "ja", seed)
    assert ex.right == oracle.right("S14", "ja", seed, trend)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("claim", ["S1", "S2", "S4", "S5", "S9", "S12", "S16"])
def test_no_distractor_is_as_right_as_the_answer(claim, seed):
    """Measured apart, every distractor's value is below the right one's by more than the tie."""
    ex, _ = asked(claim, "en", seed)
    v = oracle.values(claim, "en", seed)
    for c in ex.choices:
        if c.key != ex.right:
            assert v[c.key] < v[ex.right] - TIE, (claim, seed, c.key, ex.right)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("claim", ["S8", "S10", "S11"])
def test_no_size_distractor_names_the_right_size(claim, seed):
    ex, _ = asked(claim, "en", seed)
    labels = [c.label for c in ex.choices]
    assert len(set(labels)) == len(labels)
    numbers = [c.label.split(" (")[0] for c in ex.choices]
    assert numbers.count(ex.label(ex.right).split(" (")[0]) == 1


def test_an_exercise_with_a_distractor_as_right_as_the_answer_is_refused():
    choices = [ex_module.Choice(k, k) for k in "abc"]
    with pytest.raises(ValueError, match="as good as"):
        ex_module.exercise("S1", "?", choices, "a", "", {"a": 0.5, "b": 0.5, "c": 0.1}, TIE)
    with pytest.raises(ValueError, match="distinct"):
        ex_module.exercise("S1", "?", choices[:1] * 3, "a", "")


@pytest.mark.parametrize("claim", FAST)
def test_another_example_changes_the_instance(claim):
    """Seeds 0 … 3 do not all give the same question, answer and measured reason (a law's
    answer stays; its instance, the sentence or the draw, changes)."""
    asks = {(e.question, e.right, e.why) for e in (asked(claim, "en", s)[0] for s in range(4))}
    assert len(asks) > 1
