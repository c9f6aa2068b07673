"""Step-through of one weight: every step against the trace and against an independent
PyTorch computation from the module's parameters (einsum, the MLP on the explicit [z; q]
concatenation, F.scaled_dot_product_attention), for every score, mask and batch shape."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
import torch
from torch.nn import functional as F

import attnviz
from attnviz import worked
from attnviz.stepthrough import step_through

from .oracles import with_random_biases

D, H, N = 12, 3, 5
ATOL = 2e-5  # float32 rounding of O(1) values


def oracle(mha: attnviz.MultiHeadAttention, x: torch.Tensor, mask: torch.Tensor | None) -> dict:
    """Head h's q, k, v, scores, weights, head rows and the output, in float64 torch."""
    p = {n: t.detach().double() for n, t in mha.named_parameters()}
    p |= {n: getattr(mha, n).detach().double() for n in ("W_Q", "W_K", "W_V", "b_Q", "b_K", "b_V")}
    x = x.double().reshape(-1, N, D)  # (B, N, D)
    Q = torch.einsum("bnd,hde->bhne", x, p["W_Q"]) + p["b_Q"][:, None]  # (B, H, N, D')
    K = torch.einsum("bnd,hde->bhne", x, p["W_K"]) + p["b_K"][:, None]
    V = torch.einsum("bnd,hde->bhne", x, p["W_V"]) + p["b_V"][:, None]
    d = Q.shape[-1]
    name = mha.score_name
    if name == "dot":
        S = torch.einsum("bhid,bhjd->bhij", Q, K)
    elif name == "scaled_dot":
        S = torch.einsum("bhid,bhjd->bhij", Q, K) / math.sqrt(d)
    elif name == "bilinear":  # k_jᵀ W q_i / √D'
        S = torch.einsum("bhje,hed,bhid->bhij", K, p["score.W"], Q) / math.sqrt(d)
    elif name == "mlp":  # w_2ᵀ tanh(W_1 [k_j; q_i] + b_1) on the explicit concatenation
        W_1 = torch.cat([p["score.W_1z"], p["score.W_1q"]], dim=1)  # (H, 2D', hidden)
        zq = torch.cat(
            [K[:, :, None].expand(-1, -1, N, -1, -1), Q[:, :, :, None].expand(-1, -1, -1, N, -1)],
            dim=-1,
        )  # (B, H, N_q, N_k, 2D'): [k_j; q_i]
        U = torch.tanh(
            torch.einsum("bhijc,hcu->bhiju", zq, W_1) + p["score.b_1"]
        )  # b_1 (H, 1, 1, u)
        S = torch.einsum("bhiju,hu->bhij", U, p["score.w_2"][:, 0, 0])
    else:  # query_only: (W q_i)_j
        S = torch.einsum("bhid,hjd->bhij", Q, p["score.W"][:, :N])
    full = torch.ones(S.shape, dtype=torch.bool)
    m = full if mask is None else (mask[:, None] if mask.dim() == 3 else mask).expand_as(S)
    A = torch.softmax(S.masked_fill(~m, -math.inf), -1)
    # softmax(0 · Kᵀ + S + M) V: SDPA adds a float mask to the (here zero) dot-product scores
    M = torch.zeros_like(S).masked_fill(~m, -math.inf)
    heads = F.scaled_dot_product_attention(torch.zeros_like(Q), K, V, attn_mask=S + M)
    out = torch.einsum("bhie,hef->bif", heads, p["W_O"]) + p["b_O"]  # (B, N, D)
    return {"Q": Q, "K": K, "V": V, "S": S, "A": A, "m": m, "heads": heads, "out": out}


MASKS = {
    "none": lambda B: None,
    "causal": lambda B: attnviz.causal_mask(N),
    "padding": lambda B: attnviz.padding_mask([3, 5][:B], N),
    "per_sequence": lambda B: (
        (  # (B, N, N): each sequence its own pattern, shared by heads
            torch.rand(B, N, N, generator=torch.Generator().manual_seed(B)) > 0.5
        )
        | torch.eye(N, dtype=torch.bool)
    ),
}


@pytest.mark.parametrize("batched", [False, True], ids=["unbatched", "B=2"])
@pytest.mark.parametrize("masking", sorted(MASKS))
@pytest.mark.parametrize("score", sorted(attnviz.SCORES))
def test_every_step_matches_trace_and_oracle(score, masking, batched):
    mha = attnviz.MultiHeadAttention(D, H, score=score, mlp_hidden=6, seed=3, device="cpu")
    with_random_biases(mha)
    B = 2 if batched else 1
    x = torch.randn((B, N, D) if batched else (N, D), generator=torch.Generator().manual_seed(4))
    mask = MASKS[masking](B)
    with torch.no_grad():
        out, trace = mha(x, mask=mask)
    ref = oracle(mha, x, mask)
    np.testing.assert_allclose(out.reshape(B, N, D), ref["out"], atol=ATOL)  # the oracle is right
    np.testing.assert_allclose(trace.weights, ref["A"], atol=ATOL)
    c = 1 / math.sqrt(D // H) if score in ("scaled_dot", "bilinear") else 1.0
    seen_blocked = False
    for b in range(B):
        for h in range(H):
            for i in range(N):
                for j in range(N):
                    st = step_through(trace, mha, h=h, i=i, j=j, b=b, x=x, mask=mask)
                    X = x.reshape(B, N, D)[b].double()
                    for ours, traced, r in (
                        (st.q_i, trace.q[b, h, i], ref["Q"][b, h, i]),
                        (st.k_j, trace.k[b, h, j], ref["K"][b, h, j]),
                        (st.v_j, trace.v[b, h, j], ref["V"][b, h, j]),
                        (st.s_row, trace.scores[b, h, i], ref["S"][b, h, i]),
                        (st.a_row, trace.weights[b, h, i], ref["A"][b, h, i]),
                        (st.head_i, trace.head_out[b, h, i], ref["heads"][b, h, i]),
                        (st.out_i, out.reshape(B, N, D)[b, i], ref["out"][b, i]),
                    ):
                        np.testing.assert_allclose(ours, traced, atol=ATOL)
                        np.testing.assert_allclose(ours, r, atol=ATOL)
                    np.testing.assert_allclose(st.x_i, X[i], atol=0)
                    np.testing.assert_allclose(st.x_j, X[j], atol=0)
                    assert st.scale == pytest.approx(c, rel=1e-15)
                    assert st.s_ij == pytest.approx(c * st.term_sum, rel=1e-12, abs=1e-15)
                    assert st.s_ij == pytest.approx(float(ref["S"][b, h, i, j]), abs=ATOL)
                    assert st.m_ij == bool(ref["m"][b, h, i, j])
                    assert st.M_ij == (0.0 if st.m_ij else -math.inf)
                    assert st.a_ij == pytest.approx(float(ref["A"][b, h, i, j]), abs=ATOL)
                    if not st.m_ij:
                        seen_blocked = True
                        assert st.a_ij == 0.0 and not st.a_ij_v_j.any()
                    a_v = ref["A"][b, h, i, j] * ref["V"][b, h, j]
                    np.testing.assert_allclose(st.a_ij_v_j, a_v, atol=ATOL)
                    W_O = mha.W_O.detach().double()[h]
                    np.testing.assert_allclose(
                        st.head_i_W_O, ref["heads"][b, h, i] @ W_O, atol=ATOL
                    )
                    check_score_parts(st, mha, ref, b, h, i, j)
    assert seen_blocked == (masking != "none")


def _dot_parts(mha, h, j, q, k):
    return q, k, {}


def _bilinear_parts(mha, h, j, q, k):
    return mha.score.W.detach().double()[h].numpy() @ q, k, {}


def _mlp_parts(mha, h, j, q, k):
    s = mha.score
    z_part = k @ s.W_1z.detach().double()[h].numpy()
    q_part = q @ s.W_1q.detach().double()[h].numpy()
    b_1 = s.b_1.detach().double()[h, 0, 0].numpy()
    u = np.tanh(z_part + q_part + b_1)
    w_2 = s.w_2.detach().double()[h, 0, 0].numpy()
    return w_2, u, {"z_part": z_part, "q_part": q_part, "b_1": b_1, "pre": z_part + q_part + b_1}


def _query_only_parts(mha, h, j, q, k):
    return mha.score.W.detach().double()[h, j].numpy(), q, {}


# Each score's terms written out by hand: (left, right, parts) with s_ij = c · Σ left · right
SCORE_PARTS = {
    "dot": _dot_parts,
    "scaled_dot": _dot_parts,
    "bilinear": _bilinear_parts,
    "mlp": _mlp_parts,
    "query_only": _query_only_parts,
}


def check_score_parts(st, mha, ref, b, h, i, j) -> None:
    """Each score's own decomposition against the oracle's vectors."""
    q, k = ref["Q"][b, h, i].numpy(), ref["K"][b, h, j].numpy()
    assert st.uses_key == (st.score != "query_only")  # S6: the one score that reads no key
    left, right, parts = SCORE_PARTS[st.score](mha, h, j, q, k)
    np.testing.assert_allclose(st.left, left, atol=ATOL)
    np.testing.assert_allclose(st.right, right, atol=ATOL)
    np.testing.assert_allclose(st.terms, left * right, atol=ATOL)
    assert st.parts.keys() == parts.keys()
    for name, value in parts.items():
        np.testing.assert_allclose(st.parts[name], value, atol=ATOL)


def test_scaled_dot_head_rows_match_torch_sdpa_on_traced_vectors():
    mha = attnviz.MultiHeadAttention(D, H, seed=5, device="cpu")
    with_random_biases(mha)
    x = torch.randn(2, N, D)
    mask = attnviz.causal_mask(N)
    with torch.no_grad():
        _, trace = mha(x, mask=mask)
    sdpa = F.scaled_dot_product_attention(trace.q, trace.k, trace.v, attn_mask=mask)
    st = step_through(trace, mha, h=2, i=3, j=1, b=1, x=x, mask=mask)
    np.testing.assert_allclose(st.head_i, sdpa[1, 2, 3], atol=ATOL)


@pytest.mark.parametrize("norm", ["post", "pre"])
def test_block_trace_reads_its_own_attention_input(norm):
    block = attnviz.TransformerBlock(D, H, norm=norm, seed=2, device="cpu")
    with_random_biases(block.attn)
    x = torch.randn(N, D) * 3 + 1  # LN_1(x) differs from x
    with torch.no_grad():
        _, trace = block(x)
    st = step_through(trace, block.attn, h=1, i=4, j=0)
    np.testing.assert_allclose(st.x_i, trace.attn_in[0, 4], atol=0)
    np.testing.assert_allclose(st.out_i, trace.attn_out[0, 4], atol=ATOL)
    np.testing.assert_allclose(st.a_row, trace.attn.weights[0, 1, 4], atol=ATOL)


def test_mismatched_inputs_are_refused():
    mha = attnviz.MultiHeadAttention(D, H, seed=0, device="cpu")
    x = torch.randn(N, D)
    with torch.no_grad():
        _, trace = mha(x, mask=attnviz.causal_mask(N))
    with pytest.raises(ValueError, match="mask"):  # the causal mask left out
        step_through(trace, mha, h=0, i=1, j=0, x=x)
    with pytest.raises(ValueError, match="match the trace"):  # another module
        step_through(
            trace, attnviz.MultiHeadAttention(D, H, seed=9, device="cpu"), h=0, i=1, j=0, x=x
        )
    with pytest.raises(ValueError, match="x"):
        step_through(trace, mha, h=0, i=1, j=0)
    with pytest.raises(ValueError, match="j"):
        step_through(trace, mha, h=0, i=1, j=N, x=x, mask=attnviz.causal_mask(N))


def test_fully_masked_row_has_zero_weights_everywhere():
    mha = attnviz.MultiHeadAttention(D, H, seed=0, device="cpu")
    x = torch.randn(N, D)
    mask = torch.ones(N, N, dtype=torch.bool)
    mask[2] = False
    with torch.no_grad():
        _, trace = mha(x, mask=mask)
    st = step_through(trace, mha, h=0, i=2, j=1, x=x, mask=mask)
    assert not st.a_row.any() and not st.head_i.any() and st.a_ij == 0.0


@pytest.mark.parametrize("score", sorted(attnviz.SCORES))
def test_formula_shows_the_numbers_computed(score):
    mha = attnviz.MultiHeadAttention(D, H, score=score, seed=1, device="cpu")
    x = torch.randn(N, D)
    mask = attnviz.causal_mask(N)
    with torch.no_grad():
        _, trace = mha(x, mask=mask)
    st = step_through(trace, mha, h=1, i=3, j=2, x=x, mask=mask)
    lines = worked.weight_steps(st)  # numbered from 1, as the chapter counts
    assert f"= {worked.number(st.s_ij)}" in lines[1] and "s_{4,3}" in lines[1]
    assert f"= {worked.number(st.a_ij)}" in lines[2]
    assert (r"\sqrt{4}" in lines[1]) == (score in ("scaled_dot", "bilinear"))
    assert (r"\mathbf{k}_{3} = " in lines[0]) == (score != "query_only")
    assert "s_{3,2}" in worked.weight_steps(st, start=0)[1]
    blocked = step_through(trace, mha, h=1, i=2, j=3, x=x, mask=mask)
    assert r"-\infty" in worked.weight_steps(blocked)[2]


def test_the_softmax_sums_over_the_keys_its_row_reads():
    """The denominator was written Σ_{l: m_{i,l}}, with an m named nowhere on the page."""
    mha = attnviz.MultiHeadAttention(D, H, seed=1, device="cpu")
    x = torch.randn(N, D)
    masks = {
        None: r"\sum_{l} \exp",
        attnviz.causal_mask(N): r"\sum_{l \le 4} \exp",  # row 4 reads keys 1 … 4
        attnviz.padding_mask([3], N): r"\sum_{l:\, M_{4,l} = 0} \exp",  # keys 1 … 3
    }
    for mask, denominator in masks.items():
        with torch.no_grad():
            _, trace = mha(x, mask=mask)
        st = step_through(trace, mha, h=1, i=3, j=0, x=x, mask=mask)
        line = worked.weight_steps(st)[2]
        assert denominator in line and not re.search(r"(?<![a-z])m_\{", line), line
        allowed = st.s_row[st.m_row]  # the sum written is the sum computed
        assert st.a_ij == pytest.approx(math.exp(st.s_ij) / np.exp(allowed).sum(), rel=1e-5)


def test_formula_number_format():
    assert worked.number(0.000012345) == r"1.23 \times 10^{-5}"
    assert worked.number(-0.5) == "-0.5"


@pytest.fixture(scope="module")
def real():
    model = attnviz.load_pretrained("all-MiniLM-L6-v2")
    text = "The cat sat on the mat, and it purred."
    tokens, ids, _ = model.tokenize(text)
    _, traces = model(torch.tensor(ids))
    return model, text, tokens, traces


def test_real_model_layer_matches_its_trace_with_nonzero_biases(real):
    model, _, tokens, traces = real
    layer = 2
    mha = model.stack.blocks[layer].attn
    assert mha.b_Q.abs().max() > 0 and mha.b_K.abs().max() > 0
    n = len(tokens)
    for h, i, j in ((0, 0, n - 1), (5, 3, 2), (11, n - 1, 0)):
        st = step_through(traces[layer], mha, h=h, i=i, j=j)
        t = traces[layer].attn  # on the model's device: read back to the CPU to compare
        np.testing.assert_allclose(st.q_i, t.q[0, h, i].cpu(), atol=1e-4)
        np.testing.assert_allclose(st.s_row, t.scores[0, h, i].cpu(), atol=1e-4)
        np.testing.assert_allclose(st.a_row, t.weights[0, h, i].cpu(), atol=1e-5)
        np.testing.assert_allclose(st.out_i, traces[layer].attn_out[0, i].cpu(), atol=1e-4)
        assert st.s_ij == pytest.approx(float(t.scores[0, h, i, j]), abs=1e-4)


def test_real_model_steps_match_transformers_bert(real):
    from transformers import BertModel

    from attnviz.pretrained import model_dir

    model, text, tokens, traces = real
    bert = BertModel.from_pretrained(
        str(model_dir("all-MiniLM-L6-v2")), attn_implementation="eager"
    ).eval()
    ids = torch.tensor([model.tokenize(text)[1]])
    with torch.no_grad():
        ref = bert(input_ids=ids, output_attentions=True, output_hidden_states=True)
        layer, h, i, j = 3, 7, 4, 1
        self_attn = bert.encoder.layer[layer].attention.self
        x = ref.hidden_states[layer][0]  # (N, D): the layer's input
        sl = slice(32 * h, 32 * (h + 1))
        q, k, v = (lin(x)[:, sl] for lin in (self_attn.query, self_attn.key, self_attn.value))
        context = ref.attentions[layer][0] @ self_attn.value(x).view(-1, 12, 32).transpose(0, 1)
        out = bert.encoder.layer[layer].attention.output.dense(
            context.transpose(0, 1).reshape(len(tokens), 384)
        )
    st = step_through(traces[layer], model.stack.blocks[layer].attn, h=h, i=i, j=j)
    np.testing.assert_allclose(st.x_i, x[i], atol=1e-4)
    np.testing.assert_allclose(st.q_i, q[i], atol=1e-4)
    np.testing.assert_allclose(st.k_j, k[j], atol=1e-4)
    np.testing.assert_allclose(st.v_j, v[j], atol=1e-4)
    np.testing.assert_allclose(st.a_row, ref.attentions[layer][0, h, i], atol=1e-5)
    np.testing.assert_allclose(st.head_i, context[h, i], atol=1e-4)
    np.testing.assert_allclose(st.out_i, out[i], atol=1e-4)


@pytest.mark.parametrize("d_head", [8, 40])
def test_every_product_of_the_score_is_written_while_a_reader_can_check_the_sum(d_head):
    """D′ = 8: all eight products written, not three and "…" (a student could not check the
    sum); D′ = 40: the first three, "…" and the last, the chart holding them all."""
    mha = attnviz.MultiHeadAttention(d_head * 2, 2, seed=3, device="cpu")
    x = torch.randn(5, d_head * 2)
    with torch.no_grad():
        _, trace = mha(x)
    st = step_through(trace, mha, h=0, i=1, j=3, x=x)
    line = worked.weight_steps(st)[1]
    products = re.findall(r"\(([-\d.e\\times{}^ ]+)\)\(([-\d.e\\times{}^ ]+)\)", line)
    written = [(worked.number(a), worked.number(b)) for a, b in zip(st.left, st.right, strict=True)]
    if d_head <= worked.ALL_TERMS:
        assert products == written and r"\dots" not in line
    else:
        assert products == [*written[:3], written[-1]] and r"\dots" in line
