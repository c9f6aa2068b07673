"""Multi-head self-attention (S10–S12): a head's scores, the layer, the multi-head page's
pipeline, and a head's query–key picture."""

from __future__ import annotations

from ..norms import placement
from ..positional import MODES
from ..scores import spec_of
from .positional import positions


def head_scores(name: str) -> str:
    """The (N_q × N_k) score matrix S_h of one head under score ``name``."""
    return spec_of(name).head_formula


PRE_LN_X = r"\hat{X}"  # what a pre-LN block's attention reads (S14): LN(X)
PRE_LN_INPUT = rf"{PRE_LN_X} = \mathrm{{LN}}(X)"


def qk_scaled(s: float, head: str = "_h") -> str:
    """W^Q and W^K multiplied by s after their random draw: every inner-product score × s²."""
    return rf"W{head}^Q \leftarrow {s:g}\,W{head}^Q,\ W{head}^K \leftarrow {s:g}\,W{head}^K"


def composed_projection(x: str = "X", width: str = "D") -> str:
    """S10 then S12: the chapter's Q = XW^Q, then QW_h^Q, is X times one (width × D′) matrix,
    the W_h^Q the app draws (and likewise for K and V)."""
    return (
        rf"\begin{{aligned}}Q W_h^Q &= ({x} W^Q)\, W_h^Q = {x}\, (W^Q W_h^Q) \\"
        rf" W^Q W_h^Q &\in \mathbb{{R}}^{{{width} \times {width}}}\,"
        rf"\mathbb{{R}}^{{{width} \times D'}} = \mathbb{{R}}^{{{width} \times D'}}"
        r"\end{aligned}"
    )


def multihead(
    score_name: str,
    *,
    causal: bool = False,
    qk_scale: float = 1.0,
    norm: str = "post",
    width: str = "D",
) -> list[str]:
    """S10–S12: self-attention's Q = K = V = X, each head's own projections, W^O.

    ``qk_scale`` s ≠ 1 multiplies W_h^Q and W_h^K after their random draw (scores × s²).
    With ``norm="pre"`` (S14) attention reads X̂ = LN(X), not X. ``width``: what attention
    reads, "D", or "2D" with positions concatenated (S16).
    """
    pre = placement(norm).ln_before_sublayer  # attention reads LN(X)
    x = PRE_LN_X if pre else "X"
    softmax = r"\mathrm{softmax}(S_h + C)" if causal else r"\mathrm{softmax}(S_h)"
    sdpa = spec_of(score_name).operator and not causal  # exactly the chapter's 𝒜_{D'} (S11)
    head = (  # two lines: a narrow column cannot hold the chapter's name and its value in one
        rf"\begin{{aligned}}\mathrm{{head}}_h &= \mathcal{{A}}_{{D'}}(Q_h, K_h, V_h) \\"
        rf" &= {softmax}\, V_h\end{{aligned}}"
        if sdpa
        else rf"\mathrm{{head}}_h = {softmax}\, V_h"
    )
    lines = [
        rf"\begin{{gathered}}Q_h = {x} W_h^Q,\ K_h = {x} W_h^K,\ V_h = {x} W_h^V \\"
        rf" W_h^{{Q,K,V}} \in \mathbb{{R}}^{{{width} \times D'}}\end{{gathered}}",
        composed_projection(x, width),
        head_scores(score_name),
        head,
        rf"\begin{{gathered}}\mathcal{{A}}^M({x}, {x}, {x}) = [\mathrm{{head}}_1, \dots,"
        rf" \mathrm{{head}}_H]\, W^O \\ W^O \in \mathbb{{R}}^{{D'H \times {width}}}"
        r"\end{gathered}",
    ]
    if causal:
        lines.insert(3, r"C_{ij} = \begin{cases} 0 & j \le i \\ -\infty & j > i\end{cases}")
    if qk_scale != 1:
        lines.insert(2, qk_scaled(qk_scale))
    if pre:
        lines.insert(0, PRE_LN_INPUT)
    return lines


def pipeline(
    score_name: str, *, pe_kind: str, pe_mode: str, causal: bool, norm: str = "post"
) -> list[tuple]:
    """(step symbol, formula) of every stage of the multi-head page's computation."""
    rows = [("X", r"\mathbf{x}_i = \mathrm{embed}(\mathrm{token}_i)")]
    pe = positions(pe_kind, pe_mode)
    width = "2D" if pe is not None and MODES[pe_mode].concat else "D"  # what attention reads
    if pe is not None:
        row = pe.split(",", 1)[1].replace(r"\quad", "").strip()  # x_i's own line
        rows.append((MODES[pe_mode].step, row))
    pre = placement(norm).ln_before_sublayer
    x = PRE_LN_X if pre else "X"
    if pre:
        rows.append((x, r"\mathrm{LN}(X)"))
    rows += [
        (r"W_h^Q, W_h^K, W_h^V", rf"\in \mathbb{{R}}^{{{width} \times D'}},\ h = 1, \dots, H"),
        (r"W^O", rf"\in \mathbb{{R}}^{{D'H \times {width}}}"),
        ("Q_h, K_h, V_h", rf"{x} W_h^Q,\ {x} W_h^K,\ {x} W_h^V"),
        ("S_h", head_scores(score_name)),
        ("A_h", r"\mathrm{softmax}(S_h + C)" if causal else r"\mathrm{softmax}(S_h)"),
        (r"\mathrm{head}_h", r"A_h V_h"),
        (r"\mathrm{concat}", r"[\mathrm{head}_1, \dots, \mathrm{head}_H]"),  # a word, upright
        (r"\mathcal{A}^M", r"[\mathrm{head}_1, \dots, \mathrm{head}_H]\, W^O"),
    ]
    return rows


QK_CENTRING = (
    r"\mathbf{q}_i^\top (\mathbf{k}_j - \bar{\mathbf{k}}) = \mathbf{q}_i^\top \mathbf{k}_j"
    r" - \mathbf{q}_i^\top \bar{\mathbf{k}},\qquad (\mathbf{q}_i - \bar{\mathbf{q}})^\top"
    r" \mathbf{k}_j = \mathbf{q}_i^\top \mathbf{k}_j - \bar{\mathbf{q}}^\top \mathbf{k}_j"
)


def qk_space(score_name: str, centre: str) -> list[str]:
    """The points of a head's query–key picture: what is centred, and the shared 2D axes."""
    query = r"\mathbf{q}_i"
    lines = []
    drawn = spec_of(score_name).qk_query  # q'_i, the vector the score compares with k_j
    if drawn is not None:
        query = r"\mathbf{q}'_i"
        lines.append(drawn)
    q_mean = r" - \bar{\mathbf{q}}" if centre == "each" else ""
    k_mean = r" - \bar{\mathbf{k}}" if centre != "none" else ""
    # centred vectors get a superscript c: q̃, Q̃ are the chapter's attended vectors (S8)
    lines += [
        rf"\mathbf{{q}}^c_i = {query}{q_mean},\quad \mathbf{{k}}^c_j ="
        rf" \mathbf{{k}}_j{k_mean},\quad [Q^c; K^c] = U \Sigma\,"
        r"[\mathbf{e}_1, \dots, \mathbf{e}_{D'}]^\top",
        r"(x, y) = (\mathbf{e}_1^\top \mathbf{q}^c_i,\ \mathbf{e}_2^\top \mathbf{q}^c_i),\ "
        r"(\mathbf{e}_1^\top \mathbf{k}^c_j,\ \mathbf{e}_2^\top \mathbf{k}^c_j),"
        r"\quad \rho_a = \sigma_a^2 \Big/ \sum_b \sigma_b^2",
    ]
    if centre != "none":
        lines.append(QK_CENTRING)
    return lines
