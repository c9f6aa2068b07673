"""A new score is one spec and its strings: registered here, a toy score (the negative squared
distance) appears on the scoring and multi-head pages with its formula, its weights and the
steps of a followed weight, each checked against the distance written out by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from torch import nn

from attnviz.formulas import head_scores, score
from attnviz.i18n import catalogue, t
from attnviz.lessons import multihead, multihead_probe, scoring
from attnviz.scores import SCORES, ScoreSpec, Terms, register

from .helpers import (
    assert_clean,
    assert_step_charts,
    chain,
    decode,
    figures,
    headings,
    latex,
    run_page,
    step_panels,
)


class DistanceScore(nn.Module):
    """r(z, q) = −‖z − q‖² / √D."""

    def __init__(self, d, heads=None, *, generator=None, dtype=torch.float32) -> None:
        super().__init__()
        self.d = d

    def forward(self, z: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
        diff = q.unsqueeze(-2) - z.unsqueeze(-3)  # (..., M, N, D)
        return -(diff**2).sum(-1) / math.sqrt(self.d)  # (..., M, N)


class Distance(ScoreSpec):
    name = "distance"
    module = DistanceScore
    formula = (
        r"r(\mathbf{z}, \mathbf{q}) = -\frac{\lVert \mathbf{z} - \mathbf{q} \rVert^2}{\sqrt{{D}}}"
    )
    head_formula = (
        r"(S_h)_{ij} = -\frac{\lVert \mathbf{q}_{h,i} - \mathbf{k}_{h,j} \rVert^2}{\sqrt{D'}}"
    )
    scaled = True
    reads_keys = True
    growth = "s2"
    inner_product = False
    label = "toy.label"
    short_label = "toy.short"
    head_label = "toy.head"
    terms_title = "toy.terms"
    qk_note = "toy.qk"

    def terms(self, score, h, q_i, K):
        diff = q_i - K  # (N, D')
        return Terms(-(diff**2), -diff, diff, {})

    def term_symbol(self, i, j, h):
        return rf"-\sum_{{d=1}}^{{D'}} (q_{{{i},d}} - k_{{{j},d}})^2"

    def factor_names(self, i, j):
        return f"-(q_{i} - k_{j})_d", f"(q_{i} - k_{j})_d"


STRINGS = {
    "toy.label": ("negative squared distance", "距離の 2 乗の符号を変えたもの"),
    "toy.short": ("−‖z − q‖²/√D", "−‖z − q‖²/√D"),
    "toy.head": ("negative squared distance / √D′", "距離の 2 乗（√D′ で割る）"),
    "toy.terms": ("The terms −(q − k)²", "項 −(q − k)²"),
    "toy.qk": ("Not an inner product", "内積ではありません"),
}


@pytest.fixture
def distance(monkeypatch):
    for key, (en, ja) in STRINGS.items():
        monkeypatch.setitem(catalogue(), key, {"en": en, "ja": ja})
    spec = register(Distance())
    yield spec
    del SCORES[spec.name]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_registered_score_is_offered_computed_and_written_on_the_scoring_page(distance, lang):
    text, query = "the cat sat on the mat", "cat"
    at = run_page("scoring", lang=lang, text=text, query=query, D=16, score="distance")
    assert_clean(at)
    assert t("toy.label", lang) in at.selectbox(key="score").options
    assert score("distance") in latex(at)
    cfg = scoring.Config(text=text, query=query, D=16, score="distance")
    _, X, _, Q = scoring.sources(cfg)
    by_hand = torch.softmax(-((X - Q[0]) ** 2).sum(-1) / 4.0, -1).numpy()  # √16 = 4
    figs = figures(at)  # the scores, the weights, q̃, every score's weights, …
    np.testing.assert_allclose(decode(figs[1]["data"][0]["y"]), by_hand, rtol=1e-5)
    every = decode(figs[3]["data"][0]["z"])  # (S, N): one row per registered score
    assert every.shape[0] == len(SCORES) == 6
    assert t("scoring.all_title", lang, n=6) in headings(at)
    np.testing.assert_allclose(every[list(SCORES).index("distance")], by_hand, rtol=1e-5)


def test_a_registered_score_has_its_maps_formula_and_steps_on_the_multihead_page(distance):
    text = "a b c d"
    on = dict(i=3, j=2, head=2, follow="true", qkview="true")
    at = run_page("multihead", text=text, D=16, H=2, score="distance", **on)
    assert_clean(at)
    shown = [chain(line) for line in latex(at)]
    assert any(head_scores("distance") in line for line in shown)
    cfg = multihead.Config(text=text, D=16, H=2, score="distance")
    _, block, _, trace = multihead.forward(cfg)
    q, k = trace.attn.q[0, 1].double(), trace.attn.k[0, 1].double()  # head 2: (N, D′)
    s_32 = -float(((q[2] - k[1]) ** 2).sum()) / math.sqrt(block.attn.d_head)  # by hand
    steps = multihead_probe.follow(multihead_probe.Pick(cfg, h=1, i=2, j=1))
    assert steps.steps.s_ij == pytest.approx(s_32, rel=1e-6)
    assert steps.formulas[1] in shown  # the score line, with its numbers
    assert_step_charts(at, steps.steps)  # its terms −(q_3 − k_2)_d², its row, its values
    assert step_panels(at)["terms"]["chart"]["title"] == STRINGS["toy.terms"][0]
    assert r"-\sum_{d=1}^{D'} (q_{3,d} - k_{2,d})^2" in steps.formulas[1]
    assert STRINGS["toy.qk"][0] in [c.value for c in at.caption]
