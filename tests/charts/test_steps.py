"""The charts under a picked cell (the payloads of ui/bars.js) draw exactly the step-through's
numbers, coloured by sign, with key j red and the keys the mask forbids grey."""

import json

import numpy as np
import pytest
import torch

import attnviz
from attnviz.charts import steps as charts
from attnviz.charts.maps import TICK_LABELS_MAX_N
from attnviz.stepthrough import step_through

from ..app.helpers import series_values as values


def traced(N: int, D: int = 12, H: int = 3):
    mha = attnviz.MultiHeadAttention(D, H, score="scaled_dot", seed=2, device="cpu")
    x = torch.randn(N, D, generator=torch.Generator().manual_seed(3))
    mask = attnviz.causal_mask(N)
    with torch.no_grad():
        _, trace = mha(x, mask=mask)
    return mha, x, mask, trace


@pytest.fixture(scope="module")
def steps():
    mha, x, mask, trace = traced(6)
    return step_through(trace, mha, h=1, i=3, j=2, x=x, mask=mask)


def test_the_terms_are_the_steps_summands_blue_when_they_add_orange_when_they_take(steps):
    p = charts.terms_chart(steps, title="t", x_title="d", y_title="term")
    (panel,) = p["panels"]
    (bars,) = panel["series"]
    np.testing.assert_allclose(values(bars), steps.terms, rtol=1e-6)
    assert p["n"] == len(steps.terms) == 4 and p["names"] is None  # numbered d = 1 … D′
    want = [charts.POSITIVE if t >= 0 else charts.NEGATIVE for t in steps.terms]
    assert bars["colours"] == want and len(set(want)) == 2  # both signs occur here
    assert charts.HIGHLIGHT not in want  # red is key j's alone, in the charts below
    assert (p["title"], p["xTitle"], panel["yTitle"]) == ("t", "d", "term")
    json.dumps(p)  # plain JSON: what the component receives


def test_the_row_is_s_then_a_with_key_j_red_and_masked_keys_grey(steps):
    tokens = ["a", "b", "<c>", "d", "e", "f"]
    p = charts.row_chart(steps, tokens, score_title="s", weight_title="a", key_title="key")
    scores, weights = (panel["series"][0] for panel in p["panels"])
    np.testing.assert_allclose(values(scores), steps.s_row, rtol=1e-6)
    np.testing.assert_allclose(values(weights), steps.a_row, rtol=1e-6)
    assert [panel["yTitle"] for panel in p["panels"]] == ["s", "a"]
    assert p["highlight"] == 2 and p["masked"] == [4, 5]  # causal: query 4 reads keys 1–4
    colours = weights["colours"]
    assert colours == scores["colours"]
    assert colours[2] == charts.HIGHLIGHT and colours[4] == colours[5] == charts.MUTED
    assert colours[0] == colours[1] == colours[3] == charts.POSITIVE
    # every key named, drawn as text (ui/bars.js never parses it as markup)
    assert p["names"] == ["1:a", "2:b", "3:<c>", "4:d", "5:e", "6:f"] and p["tickNames"]
    json.dumps(p)


def test_above_the_cap_keys_are_numbered_under_the_axis_and_named_in_the_tooltip():
    n = TICK_LABELS_MAX_N + 1
    mha, x, mask, trace = traced(n)
    st = step_through(trace, mha, h=0, i=n - 1, j=0, x=x, mask=mask)
    p = charts.row_chart(st, [f"w{k}" for k in range(n)])
    assert not p["tickNames"] and len(p["names"]) == n and p["names"][-1] == f"{n}:w{n - 1}"
    assert p["masked"] == []  # the last query may read every key
    small = traced(TICK_LABELS_MAX_N)
    st = step_through(small[3], small[0], h=0, i=0, j=0, x=small[1], mask=small[2])
    assert charts.row_chart(st, ["w"] * TICK_LABELS_MAX_N)["tickNames"]


def test_the_values_mixed_are_a_ij_v_j_v_j_and_the_head_row_with_a_legend(steps):
    p = charts.values_chart(steps, v_name="v", mixed_name="av", head_name="head")
    (panel,) = p["panels"]
    mixed, v, head = panel["series"]
    assert [(s["kind"], s["name"]) for s in panel["series"]] == [
        ("bars", "av"),
        ("markers", "v"),
        ("line", "head"),
    ]
    np.testing.assert_allclose(values(mixed), steps.a_ij * steps.v_j, rtol=1e-5)
    np.testing.assert_allclose(values(v), steps.v_j, rtol=1e-6)
    np.testing.assert_allclose(values(head), steps.head_i, rtol=1e-5)
    assert p["legend"] and p["n"] == len(steps.v_j)
    assert set(mixed["colours"]) == {charts.HIGHLIGHT}
    json.dumps(p)


def test_what_each_key_sends_is_f_then_a_times_f_from_the_trace(steps):
    """‖f_h(x_l)‖ and ‖a_il f_h(x_l)‖, the second the trace's own norms (0 past the mask)."""
    *_, trace = traced(6)  # the fixture's block, seeded alike
    tokens = ["a", "b", "c", "d", "e", "f"]
    p = charts.sent_chart(steps, tokens, f_title="f", sent_title="af", key_title="key")
    f, sent = (values(panel["series"][0]) for panel in p["panels"])
    np.testing.assert_allclose(f, trace.sent_norms[0, 1].numpy(), rtol=1e-5)
    np.testing.assert_allclose(sent, trace.norms[0, 1, 3].numpy(), rtol=1e-5, atol=1e-7)
    assert sent[4] == sent[5] == 0 and p["masked"] == [4, 5] and p["highlight"] == 2
    assert steps.sent == pytest.approx(float(trace.norms[0, 1, 3, 2]), rel=1e-5)
    json.dumps(p)
