"""One query over N sources, then M at once (S1–S9): the score functions, the weighted
sum, softmax saturation (S3) and permutation equivariance (S7, S15)."""

from __future__ import annotations

from ..positional import KINDS, MODES
from ..scores import spec_of


def score(name: str, *, per_head: bool = False) -> str:
    """r(z, q) of the score ``name`` (S2, S4, S5, S6); D′ inside a head, else D."""
    return spec_of(name).score_formula("D'" if per_head else "D")


WEIGHTED_SUM = (  # S1: the weights of any score r, and the vector they read
    r"\begin{aligned}a_i &= \frac{\exp r(\mathbf{z}_i, \mathbf{q})}"
    r"{\sum_{j=1}^{N} \exp r(\mathbf{z}_j, \mathbf{q})} \\ \tilde{\mathbf{q}}"
    r" &= \sum_{i=1}^{N} a_i \mathbf{z}_i\end{aligned}"
)


def same_as(name: str) -> list[str]:
    """The published score that ``name`` is, beside it (S5: Bahdanau's additive attention)."""
    known = spec_of(name).same_as
    return [known] if known else []


def single_query(name: str) -> str:
    """S1/S8: one query's weights over the sources and the vector it reads, for any score."""
    if spec_of(name).operator:  # S8's matrix form: sources stacked as the rows of X
        return (
            r"\begin{aligned}X &= [\mathbf{z}_1, \dots, \mathbf{z}_N]^\top \\"
            r" [a_1, \dots, a_N] &= \mathrm{softmax}\!\left("
            r"\frac{\mathbf{q}^\top X^\top}{\sqrt{D}}\right) \\ \tilde{\mathbf{q}}^\top"
            r" &= \sum_{i=1}^{N} a_i \mathbf{z}_i^\top\end{aligned}"
        )
    return WEIGHTED_SUM


def many_queries(name: str) -> list[str]:
    """S9, S11: M queries at once, Q = [q_1, …, q_M]ᵀ, each row's softmax on its own.

    For the scaled dot product these are the chapter's Q̃ = softmax(Q Xᵀ / √D) X and the
    operator 𝒜_D(Q, K, V) with Q̃ = 𝒜_D(Q, X, X); for any other score r the same rows
    a_m = softmax_i r(z_i, q_m), read as Q̃ = A X.
    """
    stacked = (
        r"Q = [\mathbf{q}_1, \dots, \mathbf{q}_M]^\top \in \mathbb{R}^{M \times D},\quad"
        r" X = [\mathbf{z}_1, \dots, \mathbf{z}_N]^\top \in \mathbb{R}^{N \times D}"
    )
    if spec_of(name).operator:
        return [
            stacked,
            r"\tilde{Q} = \mathrm{softmax}\!\left(\frac{Q X^\top}{\sqrt{D}}\right) X",
            r"\mathcal{A}_D(Q, K, V) \equiv \mathrm{softmax}\!\left(\frac{Q K^\top}"
            r"{\sqrt{D}}\right) V,\qquad \tilde{Q} = \mathcal{A}_D(Q, X, X)",
        ]
    return [
        stacked,
        r"A_{mi} = \frac{\exp r(\mathbf{z}_i, \mathbf{q}_m)}{\sum_{j=1}^{N}"
        r" \exp r(\mathbf{z}_j, \mathbf{q}_m)},\qquad \tilde{Q} = A X",
    ]


def saturation(sigma_q: float = 1.0, sigma_k: float = 1.0) -> list[str]:
    """S2, S3: the scaled score, Var(qᵀk) = D σ_q² σ_k² for components of variances σ_q², σ_k²
    (each q_d k_d has variance σ_q² σ_k²), the softmax, its Jacobian and its entropy Ent(a)
    (H is the number of heads)."""
    c = (sigma_q * sigma_k) ** 2
    at = r" = D" if c == 1 else rf" = {c:g}\,D"
    return [
        r"r(\mathbf{z}, \mathbf{q}) = \frac{\mathbf{z}^\top \mathbf{q}}{\sqrt{D}}",
        # two lines: a narrow column cut the one line off after its second =
        r"\begin{aligned}\mathrm{Var}(\mathbf{q}^\top \mathbf{k}) &= \sum_{d=1}^{D}"
        rf" \mathrm{{Var}}(q_d k_d) \\ &= D\,\sigma_q^2 \sigma_k^2{at}\end{{aligned}}",
        r"\mathrm{Var}\!\left(\frac{\mathbf{q}^\top \mathbf{k}}{\sqrt{D}}\right)"
        rf" = \sigma_q^2 \sigma_k^2 = {c:g}",
        r"\mathbf{a} = \mathrm{softmax}(\mathbf{s})",
        r"J = \frac{\partial \mathbf{a}}{\partial \mathbf{s}}"
        r" = \mathrm{diag}(\mathbf{a}) - \mathbf{a}\mathbf{a}^\top",
        r"\mathrm{Ent}(\mathbf{a}) = -\sum_{j=1}^{N} a_j \log a_j \le \log N",
    ]


SATURATION = saturation()  # unit-variance components, as the chapter's S3 draws them


def equivariance(pe_kind: str, pe_mode: str) -> list[str]:
    """S7, S15: f(PX) = P f(X) for self-attention; why positions break it."""
    lines = [
        r"f(PX) = P\, f(X)",
        r"\begin{aligned}A(PX) &= \mathrm{softmax}\!\left(\frac{P Q K^\top P^\top}{\sqrt{D'}}"
        r"\right) \\ &= P\,A(X)\,P^\top\end{aligned}",
    ]
    if KINDS[pe_kind].present:
        op, rhs = MODES[pe_mode].permuted, MODES[pe_mode].of_permuted
        lines.append(
            rf"\begin{{aligned}}\mathrm{{PE}}(PX) &= {op} \\ &\neq {rhs} = P\,\mathrm{{PE}}(X)"
            r"\end{aligned}"
        )
    return lines
