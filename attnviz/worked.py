"""A weight's formulas with its numbers filled in: the worked example under a clicked cell.

``formulas`` writes the chapter's equations in symbols; this module writes the same steps
for one a_ij of one head, every factor and sum with the value the engine computed
(``attnviz.stepthrough.WeightSteps``), numbered from 1 as the chapter counts tokens.
"""

from __future__ import annotations

import math

from .scores import spec_of


def number(v: float) -> str:
    """A number as a formula shows it: 3 significant digits, 10^k instead of e-notation."""
    text = f"{v:.3g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        text = rf"{mantissa} \times 10^{{{int(exponent)}}}"
    return text


ALL_TERMS = 16  # a sum of at most this many products is written out whole (D′ = 8 is usual)


def _sum_of_products(pairs: list[tuple[float, float]], shown: int = 3) -> str:
    """(a_1)(b_1) + (a_2)(b_2) + … every pair written out, so that the reader can check the
    sum, while there are at most ``ALL_TERMS``; else the first ``shown``, "…" and the last
    (the terms' chart and CSV hold them all)."""
    parts = [rf"({number(a)})({number(b)})" for a, b in pairs]
    if len(pairs) > ALL_TERMS:
        parts = [*parts[:shown], r"\dots", parts[-1]]
    return " + ".join(parts)


def weight_steps(steps, *, start: int = 1, bias: bool = True) -> list[str]:
    """S2–S12 for one weight a_ij with its numbers, from ``attnviz.stepthrough.WeightSteps``.

    Six lines: the projections, the score's own sum of terms, the softmax (or the mask
    that zeroes it), what key j sends with that weight (``sent``), the head row and the
    output row. Tokens and heads are numbered from
    ``start``: 1, as the chapter and the token labels count (the engine's indices are 0-based).
    ``bias`` False leaves out b^Q, b^K, b^V, b^O (projections without biases, as the chapter's).
    """
    i, j, h = steps.i + start, steps.j + start, steps.h + start
    s = rf"s_{{{i},{j}}}"

    def b(name: str) -> str:
        return rf" + \mathbf{{b}}_{{{h}}}^{name}" if bias else ""

    key = rf"\mathbf{{k}}_{{{j}}} = \mathbf{{x}}_{{{j}}} W_{{{h}}}^K{b('K')},\ "
    lines = [
        rf"\mathbf{{q}}_{{{i}}} = \mathbf{{x}}_{{{i}}} W_{{{h}}}^Q{b('Q')},\ "
        + (key if steps.uses_key else "")
        + rf"\mathbf{{v}}_{{{j}}} = \mathbf{{x}}_{{{j}}} W_{{{h}}}^V{b('V')}"
    ]
    total = number(steps.term_sum) if steps.term_sum >= 0 else rf"({number(steps.term_sum)})"
    pairs = list(zip(steps.left, steps.right, strict=True))
    symbolic = spec_of(steps.score).term_symbol(i, j, h)
    if steps.scale != 1:
        lines.append(
            rf"{s} = \frac{{1}}{{\sqrt{{D'}}}} {symbolic}"
            rf" = \frac{{1}}{{\sqrt{{{steps.q_i.size}}}}} \big({_sum_of_products(pairs)}\big)"
            rf" = {number(steps.scale)} \times {total} = {number(steps.s_ij)}"
        )
    else:
        lines.append(rf"{s} = {symbolic} = {_sum_of_products(pairs)} = {number(steps.s_ij)}")
    a = rf"a_{{{i},{j}}}"
    if not steps.m_ij:
        lines.append(rf"M_{{{i},{j}}} = -\infty \;\Rightarrow\; {a} = 0")
    else:
        allowed = steps.s_row[steps.m_row]
        top = float(max(allowed))
        lse = top + math.log(sum(math.exp(float(v) - top) for v in allowed))  # log Σ exp
        denominator = number(math.exp(lse)) if lse < 700 else rf"e^{{{number(lse)}}}"
        lines.append(
            rf"{a} = \frac{{\exp {s}}}{{\sum_{{{_keys_read(steps.m_row, i)}}} \exp s_{{{i},l}}}}"
            rf" = \frac{{\exp({number(steps.s_ij)})}}{{{denominator}}} = {number(steps.a_ij)}"
        )
    lines += [
        sent(steps, start=start),
        rf"\mathrm{{head}}_{{{h},{i}}} = \sum_{{l}} a_{{{i},l}}\, \mathbf{{v}}_l"
        rf" = {number(steps.a_ij)}\, \mathbf{{v}}_{{{j}}} + \dots",
        rf"\mathbf{{out}}_{{{i}}} = \sum_{{h'}} \mathrm{{head}}_{{h',{i}}} W_{{h'}}^O"
        + (r" + \mathbf{b}^O" if bias else ""),
    ]
    return lines


def _keys_read(allowed, i: int) -> str:
    """The softmax's sum runs over the keys row ``i`` may read (``allowed``, the row of the
    mask): every l; l ≤ i under the causal mask; else those where M_il = 0."""
    allowed = [bool(m) for m in allowed]
    if all(allowed):
        return "l"
    if allowed == sorted(allowed, reverse=True) and sum(allowed) == i:  # a prefix: 1 … i
        return rf"l \le {i}"
    return rf"l:\, M_{{{i},l}} = 0"


def renormalised(steps, kept_sum: float, value: float, *, start: int = 0) -> str:
    """The map's cell once hidden tokens are left out: ã_ij = a_ij / Σ_{l ∈ kept} a_il."""
    i, j = steps.i + start, steps.j + start
    return (
        rf"\tilde a_{{{i},{j}}} = \frac{{a_{{{i},{j}}}}}{{\sum_{{l \in \mathrm{{kept}}}}"
        rf" a_{{{i},l}}}} = \frac{{{number(steps.a_ij)}}}{{{number(kept_sum)}}} = {number(value)}"
    )


def sent(steps, *, start: int = 1) -> str:
    """What key j sends to query i through head h (Kobayashi et al. 2020), with its numbers:
    ‖a_ij f_h(x_j)‖ = a_ij ‖v_j W_h^O‖ (v_j holds b_h^V where the projections have biases)."""
    i, j, h = steps.i + start, steps.j + start, steps.h + start
    return (
        rf"\lVert a_{{{i},{j}}} f_{{{h}}}(\mathbf{{x}}_{{{j}}}) \rVert"
        rf" = a_{{{i},{j}}} \lVert \mathbf{{v}}_{{{j}}} W_{{{h}}}^O \rVert"
        rf" = {number(steps.a_ij)} \times {number(steps.f_norm)} = {number(steps.sent)}"
    )
