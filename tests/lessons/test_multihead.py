"""The multi-head lesson: its config's rules, its maps against PyTorch, its formulas."""

import math
import re

import numpy as np
import pytest
import torch

from attnviz.errors import InputError
from attnviz.i18n import catalogue
from attnviz.lessons import multihead
from attnviz.limits import MAX_D, nearest_heads
from attnviz.text import embed, tokenize


def test_concatenated_positions_at_the_width_cap_name_the_limit():
    with pytest.raises(InputError) as err:
        multihead.Config(text="a b", D=MAX_D, pe="sinusoidal", pe_mode="concat")
    assert err.value.key == "width_cap"
    assert err.value.fields["width"] == 2 * MAX_D and err.value.fields["half"] == MAX_D // 2
    assert "D + D" in str(err.value)


def test_H_is_checked_on_the_width_attention_sees():
    # D = 24 concatenated: attention sees 48 = 16 · 3, so H = 16 is valid as chosen
    cfg, moved = multihead.Config.fit(text="a b", D=24, H=16, pe_mode="concat")
    assert moved is None and cfg.H == 16 and cfg.width == 48
    r = multihead.run(cfg)
    assert r.weights.shape == (16, 2, 2)
    # added: 24 is not divisible by 16; the nearest divisor of 24 is 12
    cfg, moved = multihead.Config.fit(text="a b", D=24, H=16, pe_mode="add")
    assert cfg.H == 12 and moved.key == "heads_divide" and moved.fields["nearest"] == 12


def test_nearest_heads_prefers_the_closer_then_the_smaller():
    assert nearest_heads(24, 5) == 4  # 4 and 6 tie: the smaller
    assert nearest_heads(96, 31) == 32
    assert nearest_heads(7, 3) == 1


def test_a_step_to_a_non_divisor_moves_on_the_way_it_went():
    assert nearest_heads(64, 9, came_from=8) == 16  # not back to 8, the closest
    assert nearest_heads(64, 15, came_from=16) == 8
    assert nearest_heads(24, 5, came_from=4) == 6  # the tie no longer decides
    assert nearest_heads(24, 5, came_from=6) == 4
    assert nearest_heads(8, 9, came_from=8) == 8  # nothing ahead: the closest
    assert nearest_heads(24, 5, came_from=5) == 4  # no step: the closest
    cfg, moved = multihead.Config.fit(came_from=8, text="a b", D=64, H=9)
    assert cfg.H == 16 and moved.key == "heads_next"
    assert moved.fields == dict(width=64, H=9, next=16)
    cfg, moved = multihead.Config.fit(came_from=8, text="a b", D=24, H=8)  # D moved: nearest
    assert cfg.H == 8 and moved is None
    cfg, moved = multihead.Config.fit(came_from=8, text="a b", D=20, H=8)
    assert cfg.H == 10 and moved.key == "heads_divide"


def test_weights_equal_torch_sdpa_on_the_same_projections():
    """torch's SDPA, given the block's own Q, K, V, is the oracle: its output is Σ_j a_ij v_j,
    and with V = I (one value per key) its output is the weights themselves."""
    from torch.nn.functional import scaled_dot_product_attention as sdpa

    from attnviz.block import TransformerBlock

    for causal in (False, True):
        cfg = multihead.Config(
            text="the cat sat on the mat", D=32, H=4, pe="none", norm="none", causal=causal
        )
        r = multihead.run(cfg)
        block = TransformerBlock(32, 4, bias=False, norm="none", seed=0, device="cpu")
        X = embed(tokenize(cfg.text), 32)  # (N, D)
        with torch.no_grad():
            q = torch.einsum("nd,hde->hne", X, block.attn.W_Q)  # (H, N, D′)
            k = torch.einsum("nd,hde->hne", X, block.attn.W_K)
            eye = torch.eye(len(X)).expand(4, -1, -1)  # (H, N, N): value j is the j-th unit
            weights = sdpa(q, k, eye, is_causal=causal)  # scale 1/√D′ by default
        np.testing.assert_allclose(r.weights, weights.numpy(), atol=1e-6)
        np.testing.assert_allclose(
            r.scores, (q @ k.transpose(-1, -2) / np.sqrt(8)).numpy(), atol=1e-5
        )


@pytest.mark.parametrize("score", ["dot", "scaled_dot", "bilinear", "mlp", "query_only"])
@pytest.mark.parametrize("causal", [False, True])
def test_formulas_are_those_of_the_score_and_mask_computed(score, causal):
    r = multihead.run(multihead.Config(text="a b c", D=16, H=2, score=score, causal=causal))
    text = " ".join(r.formulas)
    assert ("\\sqrt{D'}" in text) == (score in ("scaled_dot", "bilinear"))
    assert ("\\tanh" in text) == (score == "mlp")
    assert ("C_{ij}" in text) == causal  # the causal mask C (M is the number of queries)
    assert ("\\mathcal{A}_{D'}" in text) == (score == "scaled_dot" and not causal)
    assert "\\sqrt{D}" not in text  # inside a head the scale is the per-head width
    rows = dict(zip(r.pipeline.step, r.pipeline.formula, strict=True))
    assert rows["S_h"] in r.formulas  # the pipeline's score row is the formula shown
    if causal:
        assert np.allclose(np.triu(r.weights, 1), 0)


@pytest.mark.parametrize(
    ("pe", "mode", "step"), [("none", "add", None), ("learned", "concat", "[X; E]")]
)
def test_pipeline_shapes_follow_the_positional_mode(pe, mode, step):
    r = multihead.run(multihead.Config(text="a b c", D=16, H=2, pe=pe, pe_mode=mode))
    steps = list(r.pipeline.step)
    assert (step in steps) if step else not any("E" in s for s in steps)
    width = 32 if mode == "concat" and pe != "none" else 16
    assert r.pipeline.set_index("step").loc["\\mathcal{A}^M", "shape"] == f"3 × {width}"
    assert r.pipeline.set_index("step").loc["Q_h, K_h, V_h", "shape"] == f"2 × 3 × {width // 2}"
    # a word is set upright: a bare "concat" in math reads as the product c·o·n·c·a·t
    assert r.pipeline.set_index("step").loc["\\mathrm{concat}", "shape"] == f"3 × {width}"


@pytest.mark.parametrize(("pe", "mode"), [("sinusoidal", "add"), ("sinusoidal", "concat")])
def test_the_formulas_give_the_parameters_the_shapes_computed(pe, mode):
    """With positions concatenated attention reads [X; E], 2D wide: the formulas said
    W_h^{Q,K,V} ∈ ℝ^{D×D′} and W^O ∈ ℝ^{D′H×D} beside a table of 8 × 128 × 16 at D = 64."""
    D, H = 64, 8
    r = multihead.run(multihead.Config(text="a b c", D=D, H=H, pe=pe, pe_mode=mode))
    shown = " ".join(r.formulas + list(r.pipeline.formula))
    qkv = re.findall(r"\\mathbb\{R\}\^\{(\w+) \\times D'\}", shown)
    out = re.findall(r"\\mathbb\{R\}\^\{D'H \\times (\w+)\}", shown)
    # the page's formulas, its table, and W^Q W_h^Q ∈ ℝ^{D×D}ℝ^{D×D′} = ℝ^{D×D′} (S10)
    assert len(qkv) == 4 and len(out) == 2
    shapes = r.pipeline.set_index("step")["shape"]
    assert shapes["W_h^Q, W_h^K, W_h^V"] == f"{H} × {r.width} × {r.d_head}"
    assert shapes["W^O"] == f"{H * r.d_head} × {r.width}"
    assert {{"D": D, "2D": 2 * D}[w] for w in qkv + out} == {r.width}


def test_random_heads_are_almost_uniform_and_the_qk_scale_sharpens_them():
    text = "the cat sat on the mat because the mat was warm"
    base = multihead.run(multihead.Config(text=text))
    assert base.near_uniform and base.entropy.min() > 0.9  # measured 0.95–0.98 at defaults
    sharp = multihead.run(multihead.Config(text=text, qk_scale=4.0))
    assert not sharp.near_uniform and sharp.max_weight.min() > 0.9
    # the scale multiplies W^Q and W^K: scaled-dot scores grow exactly like s²
    np.testing.assert_allclose(sharp.scores, 16 * base.scores, rtol=1e-4, atol=1e-4)
    assert any("4\\,W_h^Q" in f for f in sharp.formulas)
    assert not any("leftarrow 1" in f for f in base.formulas)


@pytest.mark.parametrize("causal", [False, True])
def test_entropy_is_each_rows_entropy_over_that_of_a_uniform_row_averaged_per_head(causal):
    """Oracle in float64 from the weights the page draws: H_h = mean_i (−Σ_j a_ij ln a_ij) / ln k_i,
    0 ln 0 = 0, k_i the keys row i may read: N, or i under the causal mask, whose first
    row (one key, no choice) is left out."""
    r = multihead.run(multihead.Config(text="a b c d e f", D=16, H=2, causal=causal, qk_scale=2))
    a = r.weights.astype(np.float64)  # (H, N, N)
    N = a.shape[-1]
    terms = np.where(a > 0, -a * np.log(np.where(a > 0, a, 1.0)), 0.0).sum(-1)  # (H, N)
    keys = np.arange(1, N + 1) if causal else np.full(N, N)
    rows = terms[:, keys > 1] / np.log(keys[keys > 1])  # (H, rows) each row's share
    np.testing.assert_allclose(r.entropy, rows.mean(-1), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(r.max_weight, a.max((-1, -2)), rtol=1e-6)


@pytest.mark.parametrize("causal", [False, True])
def test_heads_of_near_zero_scores_are_uniform_over_the_keys_they_may_read(causal):
    """s → 0 makes every score 0: each row spreads evenly over its keys, entropy share 1."""
    text = "the cat sat on the mat because the mat was warm"
    r = multihead.run(multihead.Config(text=text, causal=causal, qk_scale=0.25))
    assert r.entropy.min() > 0.99 and r.reading == "near_uniform_s2"


@pytest.mark.parametrize(
    ("fields", "reading"),
    [
        ({}, "near_uniform_s2"),
        ({"qk_scale": 4.0}, "sharper_s2"),
        ({"qk_scale": 4.0, "score": "query_only"}, "sharper_s"),
        ({"score": "dot"}, "sharper_unscaled"),
        ({"score": "dot", "qk_scale": 2.0}, "sharper_unscaled_s"),
        ({"score": "dot", "qk_scale": 0.25}, "near_uniform_s2"),
        # near uniform, and s would scale the scores only s times: the text said s²
        ({"score": "query_only"}, "near_uniform_s"),
        # tanh bounds the MLP's scores: even the largest s leaves the rows near uniform, and
        # the text told the student to raise s
        ({"score": "mlp", "qk_scale": 8.0}, "near_uniform_bounded"),
    ],
)
def test_the_sentence_under_the_maps_names_what_sharpened_them(fields, reading):
    text = "the cat sat on the mat because the mat was warm"
    r = multihead.run(multihead.Config(text=text, **fields))
    assert r.reading == reading
    assert reading.startswith("near_uniform") == r.near_uniform


def test_every_reading_has_its_sentence_in_both_languages():
    for reading in multihead.READINGS:
        assert all(catalogue()[f"multihead.{reading}"][lang] for lang in ("en", "ja"))


def test_the_dot_products_factor_is_its_scores_over_scaled_dots():
    """The sentence's s²√D′: unscaled scores at s = 2 over scaled_dot's at s = 1, same seed."""
    text = "the cat sat on the mat"
    dot = multihead.run(multihead.Config(text=text, score="dot", qk_scale=2.0))
    base = multihead.run(multihead.Config(text=text))
    np.testing.assert_allclose(dot.scores, dot.score_factor * base.scores, rtol=1e-4, atol=1e-4)
    assert dot.score_factor == pytest.approx(4 * math.sqrt(8))
