"""One attention weight a_ij of one head, followed through its formula with the numbers.

Self-attention (S10–S12) for head h, query i and key j, with the inputs X = [x_1 … x_N]ᵀ:

    q_i = x_i W_h^Q + b_h^Q,   k_j = x_j W_h^K + b_h^K,   v_j = x_j W_h^V + b_h^V   (D',)
    s_ij = c · Σ_t terms_t                              the score, by score function below
    a_i· = softmax(s_i· + M_i·),   M_ij = 0 where m_ij (may attend), −∞ where not
    head_h,i = Σ_j a_ij v_j                             (D',)
    out_i = [head_1,i … head_H,i] W^O + b^O = Σ_h head_h,i W_h^O + b^O    (D,)
    ‖a_ij f_h(x_j)‖ = a_ij ‖v_j W_h^O‖        what key j sends to query i through head h
                                               (Kobayashi et al. 2020), without b^O

Every score is a scaled sum of terms, s_ij = c · Σ_t left_t right_t, c = 1/√D′ for a scaled
score and 1 otherwise; each score's spec (``attnviz.scores``) says what its terms are.

The steps are recomputed in float64 from the module's parameters and the attention input,
then checked against the trace's own float32 scores, weights and head rows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import torch

from .attention import MultiHeadAttention
from .block import BlockTrace
from .device import to_numpy
from .limits import check_int
from .scores import scale, spec_of
from .trace import AttentionTrace

TRACE_ATOL = 1e-3  # far above float32 rounding, far below a wrong module, mask or input


@dataclass(frozen=True)
class WeightSteps:
    """Every step from x_i to out_i for one weight a_ij (float64; indices are 0-based)."""

    score: str  # name in attnviz.SCORES
    b: int
    h: int
    i: int
    j: int
    x_i: np.ndarray  # (D,) the attention input row of query i
    x_j: np.ndarray  # (D,) the attention input row of key j
    q_i: np.ndarray  # (D',) x_i W_h^Q + b_h^Q
    k_j: np.ndarray  # (D',) x_j W_h^K + b_h^K
    v_j: np.ndarray  # (D',) x_j W_h^V + b_h^V
    uses_key: bool  # False when the score never reads k_j (query_only: row j of W_h)
    left: np.ndarray  # (T,) the first factor of each term: q_i, W_h q_i, w_2, row j of W_h
    right: np.ndarray  # (T,) the second: k_j, k_j, the hidden units u, q_i
    terms: np.ndarray  # (T,) left · right, the summands of s_ij before the scale c
    term_sum: float  # Σ_t terms_t
    scale: float  # c: 1/√D' for a scaled score, else 1
    s_ij: float  # c · term_sum, before the mask
    m_ij: bool  # True = query i may attend to key j
    s_row: np.ndarray  # (N,) s_i·, before the mask
    m_row: np.ndarray  # (N,) bool
    a_row: np.ndarray  # (N,) softmax(s_i· + M_i·); all 0 when no key is allowed
    a_ij: float
    V: np.ndarray  # (N, D') every value row v_l of head h
    a_ij_v_j: np.ndarray  # (D',)
    head_i: np.ndarray  # (D',) Σ_l a_il v_l
    head_i_W_O: np.ndarray  # (D,) head h's contribution to out_i
    f_row: np.ndarray  # (N,) ‖f_h(x_l)‖ = ‖v_l W_h^O‖ of every key l: what it sends per weight
    out_i: np.ndarray  # (D,) concat_i W^O + b^O, the other heads' rows as traced
    parts: dict[str, np.ndarray] = field(default_factory=dict)  # the score's own, of key j

    @property
    def f_norm(self) -> float:
        """‖f_h(x_j)‖ = ‖v_j W_h^O‖."""
        return float(self.f_row[self.j])

    @property
    def sent(self) -> float:
        """‖a_ij f_h(x_j)‖ = a_ij ‖f_h(x_j)‖, the length of what key j sends to query i."""
        return self.a_ij * self.f_norm

    @property
    def M_ij(self) -> float:
        """The additive mask: 0 where query i may attend to key j, −∞ where not."""
        return 0.0 if self.m_ij else -math.inf


def mask_row(mask: torch.Tensor | None, shape: tuple[int, int, int, int], b, h, i) -> np.ndarray:
    """Row (b, h, i) of a mask (True = may attend) broadcast as ``MultiHeadAttention`` does."""
    B, H, N_q, N_k = shape
    if mask is None:
        return np.ones(N_k, dtype=bool)
    mask = torch.as_tensor(mask).to("cpu")
    if mask.dim() == 3:
        mask = mask[:, None]  # (B, N_q, N_k) -> (B, 1, N_q, N_k), as in MultiHeadAttention
    return mask.expand(B, H, N_q, N_k)[b, h, i].numpy().astype(bool)


def softmax_row(s_row: np.ndarray, m_row: np.ndarray) -> np.ndarray:
    """softmax(s + C) over the allowed entries (S9), C the mask (0 or −∞); all zero when none
    is allowed."""
    a = np.zeros_like(s_row)
    if m_row.any():
        e = np.exp(s_row[m_row] - s_row[m_row].max())
        a[m_row] = e / e.sum()
    return a


def _check(name: str, ours: np.ndarray, traced: torch.Tensor) -> None:
    traced = to_numpy(traced)
    atol = TRACE_ATOL * max(1.0, float(np.abs(traced).max(initial=0.0)))
    if not np.allclose(ours, traced, rtol=0, atol=atol):
        raise ValueError(
            f"the recomputed {name} do not match the trace: pass the module, attention input "
            "and mask (True = may attend) that produced it"
        )


def step_through(
    trace: AttentionTrace | BlockTrace,
    mha: MultiHeadAttention,
    *,
    h: int,
    i: int,
    j: int,
    b: int = 0,
    x: torch.Tensor | None = None,
    mask: torch.Tensor | None = None,
) -> WeightSteps:
    """Every step of a_ij for head ``h``, query ``i``, key ``j`` of batch row ``b``.

    ``trace`` is the ``AttentionTrace`` of ``mha(x, mask=mask)`` (then ``x`` is required)
    or a ``BlockTrace`` (its ``attn_in`` is ``x``; ``mha`` is that block's ``.attn``).
    ``mask`` is the one given to the call (True = may attend). Raises ValueError when the
    recomputed scores, weights or head row disagree with the trace.

    Shape:
        x (N, D) or (B, N, D); mask broadcastable to (B, H, N, N) or (B, N, N).
        Returns vectors of width D, D', N or the MLP's hidden width (see ``WeightSteps``).
    """
    if isinstance(trace, BlockTrace):
        x, trace = trace.attn_in, trace.attn
    if x is None:
        raise ValueError("x (the attention input) is required with an AttentionTrace")
    B, H, N_q, N_k = trace.scores.shape
    b, h = check_int("b", b, 0, B - 1), check_int("h", h, 0, H - 1)
    i, j = check_int("i", i, 0, N_q - 1), check_int("j", j, 0, N_k - 1)
    x = torch.as_tensor(x)
    X = to_numpy(x).reshape(-1, *x.shape[-2:])[b]  # (N, D)

    def project(W: torch.Tensor, bias: torch.Tensor | None) -> np.ndarray:
        y = X @ to_numpy(W[h])  # (N, D) @ (D, D') -> (N, D')
        return y if bias is None else y + to_numpy(bias[h])

    Q = project(mha.W_Q, mha.b_Q)  # (N, D'), row i is q_i
    K = project(mha.W_K, mha.b_K)  # (N, D')
    V = project(mha.W_V, mha.b_V)  # (N, D')
    spec = spec_of(mha.score_name)
    row = spec.terms(mha.score, h, Q[i], K)  # s_i· = c · Σ_t terms_t, (N, T)
    c = scale(spec, mha.d_head)
    s_row = c * row.terms.sum(-1)  # (N,)
    m_row = mask_row(mask, (B, H, N_q, N_k), b, h, i)
    a_row = softmax_row(s_row, m_row)
    head_i = a_row @ V  # (N,) @ (N, D') -> (D',)
    _check("scores s_i·", s_row, trace.scores[b, h, i])
    _check("weights a_i·", a_row, trace.weights[b, h, i])
    _check("head row", head_i, trace.head_out[b, h, i])
    W_O = to_numpy(mha.W_O)  # (H, D', D)
    f_row = np.linalg.norm(V @ W_O[h], axis=-1)  # (N, D') @ (D', D) -> (N, D) -> (N,)
    _check("norms ‖a_il f_h(x_l)‖", a_row * f_row, trace.norms[b, h, i])
    out_i = to_numpy(trace.concat[b, i]) @ W_O.reshape(H * mha.d_head, mha.D)  # (D,)
    if mha.b_O is not None:
        out_i = out_i + to_numpy(mha.b_O)
    left, right, parts = row.of_key(j)
    return WeightSteps(
        score=mha.score_name,
        b=b,
        h=h,
        i=i,
        j=j,
        x_i=X[i],
        x_j=X[j],
        q_i=Q[i],
        k_j=K[j],
        v_j=V[j],
        uses_key=spec.reads_keys,
        left=left,
        right=right,
        terms=row.terms[j],
        term_sum=float(row.terms[j].sum()),
        scale=c,
        s_ij=float(s_row[j]),
        m_ij=bool(m_row[j]),
        s_row=s_row,
        m_row=m_row,
        a_row=a_row,
        a_ij=float(a_row[j]),
        V=V,
        a_ij_v_j=a_row[j] * V[j],
        head_i=head_i,
        head_i_W_O=head_i @ W_O[h],  # (D',) @ (D', D) -> (D,)
        f_row=f_row,
        out_i=out_i,
        parts=parts,
    )
