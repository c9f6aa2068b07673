"""The multi-head lesson: its config's rules, its maps against PyTorch, its formulas."""

import numpy as np
import pytest
import torch

from attnviz import worked
from attnviz.errors import InputError
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


def test_weights_equal_torch_sdpa_on_the_same_projections():
    cfg = multihead.Config(text="the cat sat on the mat", D=32, H=4, pe="none", norm="none")
    r = multihead.run(cfg)
    from attnviz.block import TransformerBlock

    block = TransformerBlock(32, 4, bias=False, norm="none", seed=0, device="cpu")
    X = embed(tokenize(cfg.text), 32)
    with torch.no_grad():
        q = torch.einsum("nd,hde->hne", X, block.attn.W_Q)
        k = torch.einsum("nd,hde->hne", X, block.attn.W_K)
        scores = q @ k.transpose(-1, -2) / np.sqrt(8)
    np.testing.assert_allclose(r.scores, scores.numpy(), atol=1e-5)
    np.testing.assert_allclose(r.weights, torch.softmax(scores, -1).numpy(), atol=1e-6)


@pytest.mark.parametrize("score", ["dot", "scaled_dot", "bilinear", "mlp", "query_only"])
@pytest.mark.parametrize("causal", [False, True])
def test_formulas_are_those_of_the_score_and_mask_computed(score, causal):
    r = multihead.run(multihead.Config(text="a b c", D=16, H=2, score=score, causal=causal))
    text = " ".join(r.formulas)
    assert ("\\sqrt{D'}" in text) == (score in ("scaled_dot", "bilinear"))
    assert ("\\tanh" in text) == (score == "mlp")
    assert ("M_{ij}" in text) == causal
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


def independent_qk(cfg, h):
    """Head h's q and k from the block's own parameters, by einsum on the embedded text."""
    from attnviz.block import TransformerBlock
    from attnviz.positional import PositionalEncoding

    X = PositionalEncoding(cfg.D, cfg.pe, cfg.pe_mode, seed=cfg.seed)(
        embed(tokenize(cfg.text), cfg.D)
    )
    block = TransformerBlock(
        cfg.width, cfg.H, bias=False, norm=cfg.norm, seed=cfg.seed, device="cpu"
    )
    W_Q = block.attn.W_Q.detach().double() * cfg.qk_scale
    W_K = block.attn.W_K.detach().double() * cfg.qk_scale
    x = X.double()  # post-LN: attention reads the block's input
    return (x @ W_Q[h]).numpy(), (x @ W_K[h]).numpy()  # (N, D') each


@pytest.mark.parametrize("score", ["dot", "scaled_dot", "bilinear", "mlp", "query_only"])
@pytest.mark.parametrize("causal", [False, True])
def test_followed_weight_ends_on_the_maps_cell(score, causal):
    cfg = multihead.Config(text="the cat sat on the mat", D=16, H=4, score=score, causal=causal)
    r = multihead.run(cfg)
    for h, i, j in ((0, 0, 0), (3, 5, 2), (2, 1, 4)):
        s = multihead.follow(multihead.Pick(cfg, h, i, j))
        assert s.steps.a_ij == pytest.approx(float(r.weights[h, i, j]), abs=1e-6)
        assert s.steps.s_ij == pytest.approx(float(r.scores[h, i, j]), abs=1e-5)
        np.testing.assert_allclose(s.steps.a_row, r.weights[h, i], atol=1e-6)
        assert len(s.formulas) == 5
        assert rf"s_{{{i + 1},{j + 1}}}" in s.formulas[1]  # numbered from 1, as the labels
        assert s.formulas[2].endswith(worked.number(s.steps.a_ij)) or (
            causal and j > i and r"-\infty" in s.formulas[2]
        )
        shown = " ".join(s.formulas)  # this block's projections have no biases
        assert r"\mathbf{b}_{" not in shown and r"\mathbf{b}^O" not in shown
    with pytest.raises(InputError) as err:
        multihead.Pick(cfg, h=4)
    assert err.value.fields["name"] == "head"
    with pytest.raises(InputError):
        multihead.Pick(cfg, i=6)


def test_query_key_space_decodes_to_the_heads_own_vectors():
    cfg = multihead.Config(text="the cat sat on the mat because the mat was warm", D=32, H=4)
    q = multihead.qk(multihead.Probe(cfg, h=2, query=3, k=4, centre="each"))
    Q, K = independent_qk(cfg, 2)
    X = np.concatenate([Q - Q.mean(0), K - K.mean(0)])
    _, sigma, Vt = np.linalg.svd(X)
    for got, want in (
        (q.space.queries, (Q - Q.mean(0)) @ Vt[:2].T),
        (q.space.keys, (K - K.mean(0)) @ Vt[:2].T),
    ):
        for c in range(2):
            sign = np.sign(np.dot(got[:, c], want[:, c]))
            np.testing.assert_allclose(got[:, c], sign * want[:, c], atol=1e-5)
    np.testing.assert_allclose(q.space.explained, sigma[:2] ** 2 / (sigma**2).sum(), atol=1e-6)
    r = multihead.run(cfg)
    np.testing.assert_array_equal(q.space.top_keys, np.argsort(-r.weights[2, 3], kind="stable")[:4])
    assert q.tokens == r.tokens and q.score == "scaled_dot"
    assert formulas_text(q.formulas).count(r"\bar{\mathbf{q}}") >= 1
    table = multihead.qk_table(q.space, q.tokens)
    assert len(table) == 2 * len(r.tokens) and table.position.min() == 1


def formulas_text(lines):
    return " ".join(lines)


def test_query_only_has_no_query_key_space_and_bilinear_draws_W_q():
    cfg = multihead.Config(text="a b c", D=16, H=2, score="query_only")
    with pytest.raises(InputError) as err:
        multihead.Probe(cfg)
    assert err.value.key == "no_keys"
    bilinear = multihead.qk(
        multihead.Probe(multihead.Config(text="a b c", D=16, H=2, score="bilinear"))
    )
    assert r"W_h \mathbf{q}_i" in formulas_text(bilinear.formulas)
    keys_only = multihead.qk(
        multihead.Probe(multihead.Config(text="a b c", D=16, H=2), centre="keys")
    )
    assert r"\bar{\mathbf{q}}" not in keys_only.formulas[0]


def test_step_tables_hold_the_steps_numbers():
    cfg = multihead.Config(text="a b c d", D=16, H=2, causal=True)
    s = multihead.follow(multihead.Pick(cfg, 1, 2, 1))
    tables = multihead.step_tables(s.steps, tokenize(cfg.text))
    terms = tables["terms"]
    np.testing.assert_allclose(terms["term"], terms["q_3,d"] * terms["k_2,d"])
    assert terms["term"].sum() * s.steps.scale == pytest.approx(s.steps.s_ij)
    row = tables["row"]
    assert list(row["m_3,l"]) == [True, True, True, False] and row["a_3,l"].sum() == pytest.approx(
        1
    )
    values = tables["values"]
    np.testing.assert_allclose(values["a_3,2 v_2,d"], s.steps.a_ij * values["v_2,d"])
