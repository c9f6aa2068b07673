"""Positional encodings (S15, S16): how p_i enters, the sinusoidal table, widths,
similarity between positions, and what one head scores with them."""

from __future__ import annotations

from ..positional import KINDS, MODES


def positions(kind: str, mode: str) -> str | None:
    """S16: what enters the first layer, x_i + p_i or [x_i; p_i] (None without positions)."""
    return MODES[mode].enters if KINDS[kind].present else None


def add_concat(d_pos_symbol: str = "D") -> str:
    """S16: the width after adding p_i, and after concatenating it (no words: both languages)."""
    return (
        r"\mathbf{x}_i + \mathbf{p}_i \in \mathbb{R}^{D},\qquad"
        rf" [\mathbf{{x}}_i; \mathbf{{p}}_i] \in \mathbb{{R}}^{{D + {d_pos_symbol}}}"
    )


def position_similarity(cosine: bool = False) -> str:
    """G_ij, the Gram matrix of the positions i and j: p_iᵀp_j, or its cosine (unit-length p_i).

    G, not S: S_h is a head's score matrix.
    """
    if cosine:
        return (
            r"G_{ij} = \frac{\mathbf{p}_i^\top \mathbf{p}_j}"
            r"{\lVert \mathbf{p}_i \rVert\, \lVert \mathbf{p}_j \rVert}"
        )
    return r"G_{ij} = \mathbf{p}_i^\top \mathbf{p}_j"


def position_score(mode: str) -> str:
    """What one head scores when positions enter its input: s_ij for x_i + p_i or [x_i; p_i].

    With positions added the score has four terms, and p_iᵀ p_j (the similarity map) is
    the last of them only when W^Q W^Kᵀ = I. Concatenated, the head's width is D + D.
    """
    if not MODES[mode].concat:
        return (
            r"\begin{aligned}s_{ij} &= \frac{(\mathbf{x}_i + \mathbf{p}_i)^\top W^Q (W^K)^\top"
            r" (\mathbf{x}_j + \mathbf{p}_j)}{\sqrt{D}} \\ &= \frac{1}{\sqrt{D}}\big("
            r"\mathbf{x}_i^\top W \mathbf{x}_j + \mathbf{x}_i^\top W \mathbf{p}_j"
            r" + \mathbf{p}_i^\top W \mathbf{x}_j + \mathbf{p}_i^\top W \mathbf{p}_j\big),"
            r"\quad W = W^Q (W^K)^\top\end{aligned}"
        )
    return (
        r"s_{ij} = \frac{[\mathbf{x}_i; \mathbf{p}_i]^\top W^Q (W^K)^\top"
        r" [\mathbf{x}_j; \mathbf{p}_j]}{\sqrt{D + D}}"
    )


# S16: how the repeated word's two rows (positions i and j) differ, key by key
ROW_DIFFERENCE = r"\Delta_k = a_{jk} - a_{ik},\quad k = 1, \dots, N"
