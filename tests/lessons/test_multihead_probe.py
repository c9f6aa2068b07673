"""The multi-head page's probes: a followed weight ends on the map's own cell, the
query–key space decodes to the head's own vectors, and their tables (attnviz.tables) hold
the same numbers."""

import numpy as np
import pytest

from attnviz import tables, worked
from attnviz.errors import InputError
from attnviz.lessons import multihead, multihead_probe
from attnviz.text import embed, tokenize


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
        s = multihead_probe.follow(multihead_probe.Pick(cfg, h, i, j))
        assert s.steps.a_ij == pytest.approx(float(r.weights[h, i, j]), abs=1e-6)
        assert s.steps.s_ij == pytest.approx(float(r.scores[h, i, j]), abs=1e-5)
        np.testing.assert_allclose(s.steps.a_row, r.weights[h, i], atol=1e-6)
        assert len(s.formulas) == 6
        # what key j sends: the map of contributions' cell, a_ij times ‖v_j W_h^O‖
        assert s.steps.sent == pytest.approx(float(r.norms[h, i, j]), abs=1e-6)
        assert s.formulas[3].endswith(worked.number(s.steps.sent))
        assert rf"s_{{{i + 1},{j + 1}}}" in s.formulas[1]  # numbered from 1, as the labels
        assert s.formulas[2].endswith(worked.number(s.steps.a_ij)) or (
            causal and j > i and r"-\infty" in s.formulas[2]
        )
        shown = " ".join(s.formulas)  # this block's projections have no biases
        assert r"\mathbf{b}_{" not in shown and r"\mathbf{b}^O" not in shown
    with pytest.raises(InputError) as err:
        multihead_probe.Pick(cfg, h=4)
    assert err.value.fields["name"] == "head"
    with pytest.raises(InputError):
        multihead_probe.Pick(cfg, i=6)


def test_query_key_space_decodes_to_the_heads_own_vectors():
    cfg = multihead.Config(text="the cat sat on the mat because the mat was warm", D=32, H=4)
    q = multihead_probe.qk(multihead_probe.Probe(cfg, h=2, query=3, k=4, centre="each"))
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
    table = tables.qk_table(q.space, q.tokens)
    assert len(table) == 2 * len(r.tokens) and table.position.min() == 1


def formulas_text(lines):
    return " ".join(lines)


def test_query_only_has_no_query_key_space_and_bilinear_draws_W_q():
    cfg = multihead.Config(text="a b c", D=16, H=2, score="query_only")
    with pytest.raises(InputError) as err:
        multihead_probe.Probe(cfg)
    assert err.value.key == "no_keys"
    bilinear = multihead_probe.qk(
        multihead_probe.Probe(multihead.Config(text="a b c", D=16, H=2, score="bilinear"))
    )
    assert r"W_h \mathbf{q}_i" in formulas_text(bilinear.formulas)
    keys_only = multihead_probe.qk(
        multihead_probe.Probe(multihead.Config(text="a b c", D=16, H=2), centre="keys")
    )
    assert r"\bar{\mathbf{q}}" not in keys_only.formulas[0]


def test_step_tables_hold_the_steps_numbers():
    cfg = multihead.Config(text="a b c d", D=16, H=2, causal=True)
    s = multihead_probe.follow(multihead_probe.Pick(cfg, 1, 2, 1))
    parts = tables.step_tables(s.steps, tokenize(cfg.text))
    terms = parts["terms"]
    np.testing.assert_allclose(terms["term"], terms["q_3,d"] * terms["k_2,d"])
    assert terms["term"].sum() * s.steps.scale == pytest.approx(s.steps.s_ij)
    row = parts["row"]
    assert list(row["m_3,l"]) == [1, 1, 1, 0] and row["a_3,l"].sum() == pytest.approx(1)
    # without a mask, no column of ones
    open_ = multihead_probe.follow(multihead_probe.Pick(multihead.Config(text="a b c d"), 1, 2, 1))
    assert list(tables.step_tables(open_.steps, tokenize("a b c d"))["row"]) == ["s_3,l", "a_3,l"]
    values = parts["values"]
    np.testing.assert_allclose(values["a_3,2 v_2,d"], s.steps.a_ij * values["v_2,d"])
