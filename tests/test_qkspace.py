"""Query–key space of a head: the PCA against NumPy's SVD and eigh, the top-k against the
trace's weights, and what centring does and does not preserve."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest
import torch

import attnviz
from attnviz.qkspace import qk_space, qk_space_pooled

D, H, N = 16, 2, 9


def run(score="scaled_dot", n=N, d_head=None, seed=0, B=1, mask=None):
    mha = attnviz.MultiHeadAttention(D, H, d_head, score=score, seed=seed, device="cpu")
    with torch.no_grad():
        for b in (mha.b_Q, mha.b_K):  # non-zero means for the centring to act on
            b.copy_(torch.randn(b.shape, generator=torch.Generator().manual_seed(seed)))
        x = torch.randn(B, n, D, generator=torch.Generator().manual_seed(seed + 1)) + 0.5
        _, trace = mha(x, mask=mask)
    return mha, trace


def softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def same_up_to_sign(a: np.ndarray, b: np.ndarray, atol: float = 1e-8) -> None:
    """Columns of a and b equal, each possibly negated (an SVD's sign is arbitrary)."""
    for c in range(a.shape[1]):
        sign = 1.0 if np.dot(a[:, c], b[:, c]) >= 0 else -1.0
        np.testing.assert_allclose(a[:, c], sign * b[:, c], atol=atol)


def test_pca_matches_numpy_svd_and_eigh():
    mha, trace = run()
    p = qk_space(trace, mha, h=1)
    Q, K = trace.q[0, 1].double().numpy(), trace.k[0, 1].double().numpy()
    X = np.concatenate([Q - Q.mean(0), K - K.mean(0)])  # (2N, D')
    _, sigma, Vt = np.linalg.svd(X)
    same_up_to_sign(p.axes, Vt[:2].T)
    np.testing.assert_allclose(p.explained, sigma[:2] ** 2 / (sigma**2).sum(), atol=1e-12)
    same_up_to_sign(p.queries, (Q - Q.mean(0)) @ Vt[:2].T)
    same_up_to_sign(p.keys, (K - K.mean(0)) @ Vt[:2].T)
    evals, evecs = np.linalg.eigh(X.T @ X)  # the same axes as the top eigenvectors
    same_up_to_sign(p.axes, evecs[:, ::-1][:, :2])
    np.testing.assert_allclose(p.explained, evals[::-1][:2] / evals.sum(), atol=1e-10)
    assert 0 < p.explained[1] <= p.explained[0] and p.explained.sum() < 1


def test_points_decode_back_to_the_traced_vectors():
    mha, trace = run()
    p = qk_space(trace, mha, h=0)
    Q, K = trace.q[0, 0].double().numpy(), trace.k[0, 0].double().numpy()
    np.testing.assert_allclose(p.query_mean, Q.mean(0), atol=1e-12)
    np.testing.assert_allclose(p.queries, (Q - p.query_mean) @ p.axes, atol=1e-12)
    np.testing.assert_allclose(p.keys, (K - p.key_mean) @ p.axes, atol=1e-12)
    np.testing.assert_allclose(p.axes.T @ p.axes, np.eye(2), atol=1e-12)
    assert (p.axes[np.abs(p.axes).argmax(0), [0, 1]] > 0).all()  # signs fixed: no flicker


@pytest.mark.parametrize("k", [1, 3, N])
def test_top_keys_are_the_traced_weights_in_order(k):
    mha, trace = run()
    p = qk_space(trace, mha, h=1, query=4, k=k)
    row = trace.weights[0, 1, 4].double().numpy()
    np.testing.assert_allclose(p.top_weights, np.sort(row)[::-1][:k], atol=0)
    np.testing.assert_allclose(row[p.top_keys], p.top_weights, atol=0)
    assert len(p.top_keys) == k


def test_masked_keys_are_never_among_the_top_keys():
    mha, trace = run(mask=attnviz.causal_mask(N))
    p = qk_space(trace, mha, h=0, query=2, k=5)
    assert sorted(p.top_keys) == [0, 1, 2] and (p.top_weights > 0).all()


def test_centring_keys_keeps_every_softmax_row():
    mha, trace = run()
    c = 1 / math.sqrt(mha.d_head)
    Q, K = trace.q[0, 0].double().numpy(), trace.k[0, 0].double().numpy()
    A = trace.weights[0, 0].double().numpy()
    np.testing.assert_allclose(softmax(c * Q @ (K - K.mean(0)).T), A, atol=1e-6)
    np.testing.assert_allclose(softmax(c * Q @ (K - K[3]).T), A, atol=1e-6)  # any shift
    # centring the queries shifts score j by −c q̄ᵀk_j, which depends on j: rows change
    assert not np.allclose(softmax(c * (Q - Q.mean(0)) @ K.T), A, atol=1e-3)


def test_centring_both_double_centres_the_scores():
    mha, trace = run()
    p = qk_space(trace, mha, h=1)
    S = trace.scores[0, 1].double().numpy() * math.sqrt(mha.d_head)  # Q Kᵀ
    Qc, Kc = trace.q[0, 1].double().numpy() - p.query_mean, trace.k[0, 1].double().numpy()
    Kc = Kc - p.key_mean
    double = S - S.mean(1, keepdims=True) - S.mean(0, keepdims=True) + S.mean()
    np.testing.assert_allclose(Qc @ Kc.T, double, atol=1e-5)


def test_centre_keys_only_leaves_queries_in_place():
    mha, trace = run()
    p = qk_space(trace, mha, h=0, centre="keys")
    assert not p.query_mean.any() and p.key_mean.any()
    none = qk_space(trace, mha, h=0, centre="none")
    assert not none.query_mean.any() and not none.key_mean.any()
    with pytest.raises(ValueError, match="centre"):
        qk_space(trace, mha, h=0, centre="queries")


def test_inner_products_kept():
    mha, trace = run(d_head=2)  # two axes span all of ℝ^2: nothing is lost
    assert qk_space(trace, mha, h=0).inner_products_kept == pytest.approx(1.0, abs=1e-12)
    mha, trace = run(d_head=8)
    p = qk_space(trace, mha, h=0, centre="none")  # the only case where rows have a mean
    full = trace.q[0, 0].double().numpy() @ trace.k[0, 0].double().numpy().T
    flat = p.queries @ p.keys.T

    def rc(m):
        return m - m.mean(1, keepdims=True)

    expected = 1 - ((rc(full) - rc(flat)) ** 2).sum() / (rc(full) ** 2).sum()
    assert p.inner_products_kept == pytest.approx(expected, rel=1e-12)
    assert 0 < p.inner_products_kept < 1


def test_bilinear_pictures_W_q_and_mlp_is_flagged():
    mha, trace = run("bilinear")
    p = qk_space(trace, mha, h=1, centre="keys")
    Wq = trace.q[0, 1].double().numpy() @ mha.score.W[1].detach().double().numpy().T
    Kc = trace.k[0, 1].double().numpy() - p.key_mean
    A = trace.weights[0, 1].double().numpy()
    np.testing.assert_allclose(softmax(Wq @ Kc.T / math.sqrt(mha.d_head)), A, atol=1e-6)
    np.testing.assert_allclose(p.queries, Wq @ p.axes, atol=1e-12)
    assert p.inner_product
    mha, trace = run("mlp")
    assert not qk_space(trace, mha, h=0).inner_product
    mha, trace = run("query_only")
    with pytest.raises(ValueError, match="keys"):
        qk_space(trace, mha, h=0)


def test_batch_row_and_padding_length():
    mha, trace = run(B=2, mask=attnviz.padding_mask([N, 6], N))
    p = qk_space(trace, mha, h=1, b=1, n=6, query=5, k=N)
    Q = trace.q[1, 1, :6].double().numpy()
    assert p.queries.shape == (6, 2) and p.keys.shape == (6, 2)
    np.testing.assert_allclose(p.query_mean, Q.mean(0), atol=1e-12)
    assert (p.top_keys < 6).all() and len(p.top_keys) == 6


def test_pooled_is_one_pca_over_all_sentences():
    mha, t1 = run(n=5, seed=0)
    _, t2 = run(n=7, seed=0)  # same module, another input
    with torch.no_grad():
        _, t2 = mha(torch.randn(7, D) + 1)
    p = qk_space_pooled([t1, t2], mha, h=0, query=5 + 3, k=4)
    Q = np.concatenate([t.q[0, 0].double().numpy() for t in (t1, t2)])
    K = np.concatenate([t.k[0, 0].double().numpy() for t in (t1, t2)])
    X = np.concatenate([Q - Q.mean(0), K - K.mean(0)])
    _, sigma, Vt = np.linalg.svd(X)
    same_up_to_sign(p.axes, Vt[:2].T)
    np.testing.assert_allclose(p.explained, sigma[:2] ** 2 / (sigma**2).sum(), atol=1e-12)
    assert list(p.sentence) == [0] * 5 + [1] * 7
    assert list(p.position) == [*range(5), *range(7)]
    row = t2.weights[0, 0, 3].double().numpy()  # query 3 of sentence 1
    np.testing.assert_allclose(p.top_weights, np.sort(row)[::-1][:4], atol=0)
    assert (p.top_keys >= 5).all() and (p.sentence[p.top_keys] == 1).all()
    single = qk_space(t1, mha, h=0, query=2)
    pooled_one = qk_space_pooled([t1], mha, h=0, query=2)
    np.testing.assert_allclose(single.queries, pooled_one.queries, atol=0)
    with pytest.raises(ValueError, match="traces"):
        qk_space_pooled([], mha, h=0)


def test_real_model_head_and_pooled_view():
    model = attnviz.load_pretrained("all-MiniLM-L6-v2")
    sentences = ["The cat sat on the mat.", "Attention is all you need, they said."]
    traces = []
    for text in sentences:
        _, ids, _ = model.tokenize(text)
        traces.append(model(torch.tensor(ids))[1][4])  # layer 5's BlockTrace
    mha = model.stack.blocks[4].attn
    enc = model.encode(sentences[0])
    p = qk_space(traces[0], mha, h=3, query=2, k=3)
    np.testing.assert_allclose(p.top_weights, np.sort(enc.attentions[4, 3, 2])[::-1][:3], atol=1e-6)
    assert p.queries.shape == (len(enc.tokens), 2)
    pooled = qk_space_pooled(traces, mha, h=3)
    assert pooled.queries.shape[0] == sum(t.attn.q.shape[2] for t in traces)
    assert 0 < pooled.explained.sum() < 1


def test_512_tokens_stay_cheap():
    mha = attnviz.MultiHeadAttention(384, 12, seed=0, device="cpu")
    with torch.no_grad():
        _, trace = mha(torch.randn(512, 384))
    qk_space(trace, mha, h=0)  # warm up
    start = time.perf_counter()
    p = qk_space(trace, mha, h=5, query=100, k=10)
    assert time.perf_counter() - start < 1.0  # a few ms when vectorised
    assert p.queries.shape == p.keys.shape == (512, 2)
