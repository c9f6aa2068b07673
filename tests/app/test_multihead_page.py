"""The multi-head page: runs in both languages, its maps are the engine's softmax rows."""

import numpy as np
import pytest

from attnviz.lessons import multihead
from attnviz.text import tokenize

from .helpers import assert_clean, decode, figures, latex, run_page, sweep_controls


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_renders_and_rows_sum_to_one(lang):
    at = run_page("multihead", lang=lang)
    assert_clean(at)
    grid = decode(figures(at)[0]["data"][0]["z"])  # every head's map in one canvas, NaN between
    rows = [
        run
        for line in grid
        for run in np.split(line, np.flatnonzero(np.isnan(line)))
        if np.isfinite(run).any()
    ]
    rows = [run[np.isfinite(run)] for run in rows]
    N = len(tokenize(at.text_input(key="text").value))
    assert len(rows) == 8 * N  # default H = 8 heads, one row per query token
    for row in rows:
        assert len(row) == N and row.sum() == pytest.approx(1.0, abs=1e-5)


def test_hostile_url_values_do_not_break_the_page():
    at = run_page(
        "multihead", H="0", D="abc", seed="-5", text="<script>alert(1)</script>", score="nope"
    )
    assert_clean(at)
    assert at.slider(key="H").value == 1  # clamped to the lower cap
    assert at.selectbox(key="score").value == "scaled_dot"
    assert len(at.warning) >= 3


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_control_reruns_cleanly(lang):
    at = run_page("multihead", lang=lang, text="a b c d e f")
    assert sweep_controls(at) > 20


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_large_grid_is_one_picture_and_says_so(lang):
    text = " ".join(f"w{i}" for i in range(150))
    at = run_page("multihead", lang=lang, text=text, D=384, H=12)
    assert_clean(at)
    grid, big = figures(at)
    assert [t["type"] for t in grid["data"]] == ["image"]
    captions = [c.value for c in at.caption]
    image_caption = "1 枚の画像" if lang == "ja" else "one picture"
    assert any(image_caption in c for c in captions)
    weights = decode(big["data"][0]["z"])  # the enlarged head keeps every value and its hover
    assert weights.shape == (150, 150)
    np.testing.assert_allclose(weights.sum(axis=1), 1.0, atol=1e-5)


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize(
    ("params", "present", "absent"),
    [
        ({"score": "mlp"}, ["\\tanh"], ["\\sqrt{D'}", "A_{D'}"]),
        ({"score": "dot", "causal": "true"}, ["M_{ij}"], ["\\sqrt{D'}"]),
        ({"score": "scaled_dot", "pe": "none"}, ["A_{D'}", "\\sqrt{D'}"], ["E"]),
        ({"pe_mode": "concat"}, ["[X;\\ E]"], ["X + E"]),
    ],
)
def test_formulas_shown_are_those_of_the_config_run(lang, params, present, absent):
    at = run_page("multihead", lang=lang, text="a b c d", D=16, H=2, **params)
    assert_clean(at)
    shown = latex(at)
    fields = {"text": "a b c d", "D": 16, "H": 2, "causal": params.get("causal") == "true"}
    fields |= {k: v for k, v in params.items() if k != "causal"}
    expected = multihead.run(multihead.Config(**fields)).formulas
    assert shown == expected
    joined = " ".join(shown)
    assert all(p in joined for p in present) and not any(a in joined for a in absent)
    table = next(m.value for m in at.markdown if m.value.startswith("| "))
    assert multihead.run(multihead.Config(**fields)).pipeline.formula.iloc[3] in table


def test_concatenated_positions_keep_a_valid_H():
    at = run_page("multihead", text="a b", D=24, H=16, pe_mode="concat")
    assert_clean(at)
    assert not at.info and not at.error  # 48 / 16 = 3: nothing to repair
    at = run_page("multihead", lang="ja", text="a b", D=1024, pe_mode="concat")
    assert_clean(at)
    assert "2048" in at.error[0].value and "512" in at.error[0].value


def test_colours_span_the_data_with_the_uniform_weight_marked():
    at = run_page("multihead", text="a b c d e", D=16, H=2, qk="1")
    assert_clean(at)
    grid, big = figures(at)
    r = multihead.run(multihead.Config(text="a b c d e", D=16, H=2))
    for fig in (grid, big):
        trace = fig["data"][0]
        assert trace["zmax"] == pytest.approx(float(r.weights.max()))
        assert "1/N" in trace["colorbar"]["ticktext"]
        assert 0.2 in [round(v, 6) for v in trace["colorbar"]["tickvals"]]  # 1/N at N = 5
