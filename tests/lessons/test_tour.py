"""The tour's stops: S1 → S16, each with its words in both languages and a link built from
the pages' own defaults."""

import pytest

from attnviz import formulas
from attnviz.i18n import LANGS, catalogue, t
from attnviz.lessons import tour


@pytest.mark.parametrize("lang", LANGS)
def test_one_stop_per_claim_in_order_with_its_words(lang):
    stops = tour.stops(lang)
    assert [s.claim for s in stops] == [f"S{k}" for k in range(1, 17)]
    for s in stops:
        for part in ("claim", "state", "question"):
            assert f"tour.{s.claim.lower()}_{part}" in catalogue()
        assert s.query()["lang"] == lang and s.script == tour.PAGE_FILES[s.page]


@pytest.mark.parametrize("lang", LANGS)
def test_links_carry_the_sentence_of_the_reader_s_language(lang):
    for s in tour.stops(lang):
        if s.page in tour.TEXT_KEYS:
            assert s.query()["text"] == t(tour.TEXT_KEYS[s.page][0], lang)


def test_equations_are_the_formulas_module_s():
    by_claim = {s.claim: s.formula for s in tour.stops("en")}
    assert by_claim["S2"] == formulas.score("scaled_dot")
    assert by_claim["S3"] == formulas.SATURATION[1]
    assert by_claim["S9"] in formulas.many_queries("scaled_dot")
    assert "\\mathcal{A}_D(Q, X, X)" in by_claim["S11"]
    assert by_claim["S13"] == formulas.block("post") and by_claim["S14"] == formulas.block("pre")
    assert by_claim["S16"] == formulas.positions("sinusoidal", "add")
    assert all(by_claim[c] in formulas.multihead("scaled_dot") for c in ("S10", "S12"))
