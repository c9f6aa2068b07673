"""S2: the scaled dot product r(z, q) = zᵀq / √D, whose softmax is the operator 𝒜_D (S11)."""

from __future__ import annotations

from .dot import Dot, DotScore


class ScaledDotScore(DotScore):
    """S2: r(z, q) = zᵀq / √D (D is the width of z and q: the per-head D' inside MHA)."""

    scale_by_sqrt_d = True


class ScaledDot(Dot):
    name = "scaled_dot"
    module = ScaledDotScore
    formula = r"r(\mathbf{z}, \mathbf{q}) = \frac{\mathbf{z}^\top \mathbf{q}}{\sqrt{{D}}}"
    head_formula = r"S_h = \frac{Q_h K_h^\top}{\sqrt{D'}}"
    scaled = True
    operator = True
    label = "names.scaled_dot"
    short_label = "scoring.row_scaled_dot"
    head_label = "names.scaled_dot_head"


SPEC = ScaledDot()
