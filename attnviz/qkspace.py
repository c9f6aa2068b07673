"""The query–key space of one head (AttentionViz, Yeh et al. 2023): its queries and keys in 2D.

For head h with query vectors q_i and key vectors k_j (rows of Q, K ∈ ℝ^{N×D'}) and a
centring choice:

    q^c_i = q_i − q̄,  k^c_j = k_j − k̄               centre="each": each set on its own mean
    [Q^c; K^c] = U Σ [e_1 … e_D']ᵀ                   SVD of the 2N stacked rows, (2N, D')
    coordinates = [Q^c; K^c] [e_1 e_2]                queries and keys in the same two axes
    explained_a = σ_a² / Σ_b σ_b²                    share of the stacked rows' variance

(the superscript c marks a centred vector: q̃, Q̃ are the chapter's attended vectors, and P
a permutation)

What centring does to the scores S = c · Q Kᵀ (c = 1/√D' for scaled_dot):

    keys:     q_iᵀ(k_j − k̄) = q_iᵀk_j − q_iᵀk̄      one shift for the whole row i, so every
              softmax row is unchanged (S9: softmax(s + t·1) = softmax(s)); any shift of
              the keys, per sentence or pooled, keeps the rows.
    queries:  (q_i − q̄)ᵀk_j = q_iᵀk_j − q̄ᵀk_j      a shift that depends on j, the same for
              every query: each key's baseline score, the one all queries give it. Removing
              it changes the rows, a_ij ∝ exp(s_ij − c q̄ᵀk_j).
    both:     c Q^c K^cᵀ = S − row means − column means + grand mean, the double-centred S.
              It keeps, for every pair of queries and pair of keys, s_ij − s_il − s_i'j + s_i'l:
              how queries differ in which keys they prefer. It loses each key's baseline,
              the pull every query feels (the one that makes [SEP] a sink).

centre="keys" keeps every softmax row exactly; centre="each" (AttentionViz-like, two
clouds on one origin) does not. Either way the weights drawn come from the trace, and a
weight is large where q_iᵀk_j is large: the direction and length of k_j seen from q_i, not
the distance between the two points. ``inner_products_kept`` measures how much of the
(row-centred) inner products the two axes reproduce.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from .attention import MultiHeadAttention
from .block import BlockTrace
from .device import to_numpy
from .limits import MAX_N, check_choice, check_int
from .trace import AttentionTrace

CENTRES = ("each", "keys", "none")


@dataclass(frozen=True)
class QKSpace:
    """Queries and keys of one head in two shared axes; rows of all sentences stacked."""

    queries: np.ndarray  # (N, 2) (q'_i − q̄)ᵀ[e_1 e_2], N summed over sentences
    keys: np.ndarray  # (N, 2) (k_j − k̄)ᵀ[e_1 e_2]
    axes: np.ndarray  # (D', 2) the two principal axes [e_1 e_2]
    explained: np.ndarray  # (2,) share of the stacked rows' variance along each axis
    # 1 − ‖Q^cK^cᵀ − Q^c e12 e12ᵀK^cᵀ‖² / ‖Q^cK^cᵀ‖², rows centred, e12 = [e_1 e_2]
    inner_products_kept: float
    query_mean: np.ndarray  # (D',) q̄ subtracted (0 unless centre="each")
    key_mean: np.ndarray  # (D',) k̄ subtracted (0 when centre="none")
    sentence: np.ndarray  # (N,) the sentence each row comes from (all 0 for one trace)
    position: np.ndarray  # (N,) its token position in that sentence
    query: int  # the chosen query row
    top_keys: np.ndarray  # (≤ k,) rows of ``keys`` with the largest weights, descending;
    top_weights: np.ndarray  # (≤ k,) their a_ij. Fewer than k: the sentence is shorter, or
    # keys of weight 0 (masked) are left out
    centre: str
    inner_product: bool  # False for mlp: its scores are not q'ᵀk, the picture shows q and k


def head_vectors(
    trace: AttentionTrace | BlockTrace, mha: MultiHeadAttention, *, h: int, b: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(q'_i, k_j, a_ij) of head ``h``: q' = W_h q for bilinear (S4), else q as traced.

    Shape:
        -> queries (N, D'), keys (N, D'), weights (N, N), float64.
    """
    trace = trace.attn if isinstance(trace, BlockTrace) else trace
    B, H = trace.q.shape[:2]
    b, h = check_int("b", b, 0, B - 1), check_int("h", h, 0, H - 1)
    if not mha.spec.reads_keys:
        raise ValueError(
            f"the {mha.score_name} score never reads the keys: it has no query–key space"
        )
    Q, K = to_numpy(trace.q[b, h]), to_numpy(trace.k[b, h])  # (N, D')
    Q = mha.spec.query_points(mha.score, h, Q)  # (N, D'): W_h q_i for bilinear, else q_i
    return Q, K, to_numpy(trace.weights[b, h])


def _axes(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The first two right singular vectors of X (signs fixed) and their variance shares."""
    _, sigma, Vt = np.linalg.svd(X, full_matrices=False)  # X (2N, D') = U Σ Vᵀ
    e12 = np.zeros((X.shape[1], 2))
    e12[:, : min(2, len(sigma))] = Vt[:2].T  # (D', 2); D' = 1 leaves the second axis 0
    signs = np.sign(e12[np.abs(e12).argmax(0), [0, 1]])  # largest entry of each axis positive
    e12 *= np.where(signs == 0, 1.0, signs)
    var = sigma**2
    explained = np.zeros(2)
    explained[: min(2, len(var))] = var[:2] / max(var.sum(), np.finfo(float).tiny)
    return e12, explained


def project(
    queries: Sequence[np.ndarray],
    keys: Sequence[np.ndarray],
    weights: Sequence[np.ndarray],
    *,
    query: int = 0,
    k: int = 5,
    centre: str = "each",
    inner_product: bool = True,
) -> QKSpace:
    """PCA of the queries and keys of one or more sentences (one array per sentence).

    Shape:
        queries[s], keys[s] (N_s, D'); weights[s] (N_s, N_s). ``query`` indexes the stacked
        rows (0 … ΣN_s − 1); its top-k keys are taken within its own sentence.
    """
    check_choice("centre", centre, CENTRES)
    Q, K = np.concatenate(queries), np.concatenate(keys)  # (N, D'), N = Σ_s N_s
    N, d_head = Q.shape
    query, k = check_int("query", query, 0, N - 1), check_int("k", k, 1, MAX_N)
    q_mean = Q.mean(0) if centre == "each" else np.zeros(d_head)
    k_mean = K.mean(0) if centre != "none" else np.zeros(d_head)
    Qc, Kc = Q - q_mean, K - k_mean  # (N, D') each
    e12, explained = _axes(np.concatenate([Qc, Kc]))  # (D', 2)
    sizes = [len(q) for q in queries]
    starts = np.cumsum([0, *sizes])
    sentence = np.repeat(np.arange(len(sizes)), sizes)  # (N,)
    position = np.arange(N) - starts[sentence]
    error = total = 0.0
    for s, (lo, hi) in enumerate(pairwise(starts)):
        full = Qc[lo:hi] @ Kc[lo:hi].T  # (N_s, N_s) inner products within sentence s
        flat = (Qc[lo:hi] @ e12) @ (Kc[lo:hi] @ e12).T  # (N_s, N_s) the same in the picture
        full -= full.mean(1, keepdims=True)  # no effect on a softmax; 0 once keys are centred
        flat -= flat.mean(1, keepdims=True)
        error += float(((full - flat) ** 2).sum())
        total += float((full**2).sum())
        if s == sentence[query]:
            row = np.asarray(weights[s])[query - lo]  # (N_s,)
    order = np.argsort(-row, kind="stable")[:k]
    order = order[row[order] > 0]
    return QKSpace(
        queries=Qc @ e12,
        keys=Kc @ e12,
        axes=e12,
        explained=explained,
        inner_products_kept=1.0 - error / total if total > 0 else 1.0,
        query_mean=q_mean,
        key_mean=k_mean,
        sentence=sentence,
        position=position,
        query=query,
        top_keys=order + starts[sentence[query]],
        top_weights=row[order],
        centre=centre,
        inner_product=inner_product,
    )


def qk_space(
    trace: AttentionTrace | BlockTrace,
    mha: MultiHeadAttention,
    *,
    h: int,
    b: int = 0,
    n: int | None = None,
    query: int = 0,
    k: int = 5,
    centre: str = "each",
) -> QKSpace:
    """The query–key space of head ``h`` for batch row ``b`` (its first ``n`` tokens, e.g.
    the unpadded ones; all by default). ``mha`` is the module that produced the trace."""
    Q, K, A = head_vectors(trace, mha, h=h, b=b)
    n = len(Q) if n is None else check_int("n", n, 1, len(Q))
    inner = mha.spec.inner_product
    return project(
        [Q[:n]], [K[:n]], [A[:n, :n]], query=query, k=k, centre=centre, inner_product=inner
    )


def qk_space_pooled(
    traces: Sequence[AttentionTrace | BlockTrace],
    mha: MultiHeadAttention,
    *,
    h: int,
    query: int = 0,
    k: int = 5,
    centre: str = "each",
) -> QKSpace:
    """Head ``h`` over several sentences (one trace each, batch row 0) in one picture, as
    AttentionViz pools them: one mean per set over all sentences, one PCA."""
    if not traces:
        raise ValueError("traces must hold at least 1 trace")
    parts = [head_vectors(t, mha, h=h) for t in traces]
    inner = mha.spec.inner_product
    return project(
        [p[0] for p in parts],
        [p[1] for p in parts],
        [p[2] for p in parts],
        query=query,
        k=k,
        centre=centre,
        inner_product=inner,
    )
