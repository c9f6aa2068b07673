"""LaTeX of the chapter's equations, generated from what a lesson computed.

The one place the app's formulas are written. Each function takes the choices that
change the arithmetic (score function, per-head width, LN placement, activation,
positional mode, masks) and returns the formula of exactly that computation, so a page
never shows an equation other than the one behind its figure. Symbols follow the
chapter: X = [x_1, …, x_N]ᵀ ∈ ℝ^{N×D} (rows are tokens), D′ the per-head width,
E = [p_1, …, p_N]ᵀ the table of positional encodings (P is kept for permutations).
"""

from __future__ import annotations

ACTIVATIONS = {"relu": r"\mathrm{ReLU}", "gelu": r"\mathrm{GELU}"}


def _width(per_head: bool) -> str:
    return "D'" if per_head else "D"


def score(name: str, *, per_head: bool = False) -> str:
    """r(z, q) of the score ``name`` (S2, S4, S5, S6); D′ inside a head, else D."""
    d = _width(per_head)
    return {
        "dot": r"r(\mathbf{z}, \mathbf{q}) = \mathbf{z}^\top \mathbf{q}",
        "scaled_dot": rf"r(\mathbf{{z}}, \mathbf{{q}}) = \frac{{\mathbf{{z}}^\top \mathbf{{q}}}}"
        rf"{{\sqrt{{{d}}}}}",
        "bilinear": rf"r(\mathbf{{z}}, \mathbf{{q}}) = \frac{{\mathbf{{z}}^\top W \mathbf{{q}}}}"
        rf"{{\sqrt{{{d}}}}},\quad W \in \mathbb{{R}}^{{{d} \times {d}}}",
        "mlp": r"r(\mathbf{z}, \mathbf{q}) = \mathbf{w}_2^\top"
        r" \tanh\!\left(W_1 [\mathbf{z}; \mathbf{q}] + \mathbf{b}_1\right)",
        "query_only": r"r(\mathbf{z}_j, \mathbf{q}) = (W \mathbf{q})_j"
        rf",\quad W \in \mathbb{{R}}^{{N \times {d}}}",
    }[name]


WEIGHTED_SUM = (  # S1: the weights of any score r, and the vector they read
    r"\begin{aligned}a_i &= \frac{\exp r(\mathbf{z}_i, \mathbf{q})}"
    r"{\sum_{j=1}^{N} \exp r(\mathbf{z}_j, \mathbf{q})} \\ \tilde{\mathbf{q}}"
    r" &= \sum_{i=1}^{N} a_i \mathbf{z}_i\end{aligned}"
)


def single_query(name: str) -> str:
    """S1/S8: one query's weights over the sources and the vector it reads, for any score."""
    if name == "scaled_dot":  # S8's matrix form: sources stacked as the rows of X
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
    if name == "scaled_dot":
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


def head_scores(name: str) -> str:
    """The (N_q × N_k) score matrix S_h of one head under score ``name``."""
    return {
        "dot": r"S_h = Q_h K_h^\top",
        "scaled_dot": r"S_h = \frac{Q_h K_h^\top}{\sqrt{D'}}",
        "bilinear": r"S_h = \frac{Q_h W_h^\top K_h^\top}{\sqrt{D'}}",
        "mlp": r"(S_h)_{ij} = \mathbf{w}_{2,h}^\top \tanh\!\left(W_{1,h}"
        r" [\mathbf{k}_{h,j}; \mathbf{q}_{h,i}] + \mathbf{b}_{1,h}\right)",
        "query_only": r"(S_h)_{ij} = (W_h \mathbf{q}_{h,i})_j",
    }[name]


def positions(kind: str, mode: str) -> str | None:
    """S16: what enters the first layer, x_i + p_i or [x_i; p_i] (None without positions)."""
    if kind == "none":
        return None
    if mode == "add":
        return r"X \leftarrow X + E,\quad \mathbf{x}_i \leftarrow \mathbf{x}_i + \mathbf{p}_i"
    return r"X \leftarrow [X;\ E],\quad \mathbf{x}_i \leftarrow [\mathbf{x}_i; \mathbf{p}_i]"


def multihead(
    score_name: str, *, causal: bool = False, qk_scale: float = 1.0, norm: str = "post"
) -> list[str]:
    """S10–S12: self-attention's Q = K = V = X, each head's own projections, W^O.

    ``qk_scale`` s ≠ 1 multiplies W_h^Q and W_h^K after their random draw (scores × s²).
    With ``norm="pre"`` (S14) attention reads X̂ = LN(X), not X.
    """
    x = PRE_LN_X if norm == "pre" else "X"
    softmax = r"\mathrm{softmax}(S_h + M)" if causal else r"\mathrm{softmax}(S_h)"
    sdpa = score_name == "scaled_dot" and not causal  # exactly the chapter's 𝒜_{D'} (S11)
    head = (  # two lines: a narrow column cannot hold the chapter's name and its value in one
        rf"\begin{{aligned}}\mathrm{{head}}_h &= \mathcal{{A}}_{{D'}}(Q_h, K_h, V_h) \\"
        rf" &= {softmax}\, V_h\end{{aligned}}"
        if sdpa
        else rf"\mathrm{{head}}_h = {softmax}\, V_h"
    )
    lines = [
        rf"\begin{{gathered}}Q_h = {x} W_h^Q,\ K_h = {x} W_h^K,\ V_h = {x} W_h^V \\"
        r" W_h^{Q,K,V} \in \mathbb{R}^{D \times D'}\end{gathered}",
        head_scores(score_name),
        head,
        rf"\begin{{gathered}}\mathcal{{A}}^M({x}, {x}, {x}) = [\mathrm{{head}}_1, \dots,"
        r" \mathrm{head}_H]\, W^O \\ W^O \in \mathbb{R}^{D'H \times D}\end{gathered}",
    ]
    if causal:
        lines.insert(2, r"M_{ij} = \begin{cases} 0 & j \le i \\ -\infty & j > i\end{cases}")
    if qk_scale != 1:
        lines.insert(
            1, rf"W_h^Q \leftarrow {qk_scale:g}\,W_h^Q,\ W_h^K \leftarrow {qk_scale:g}\,W_h^K"
        )
    if norm == "pre":
        lines.insert(0, PRE_LN_INPUT)
    return lines


PRE_LN_X = r"\hat{X}"  # what a pre-LN block's attention reads (S14): LN(X)
PRE_LN_INPUT = rf"{PRE_LN_X} = \mathrm{{LN}}(X)"


def pipeline(
    score_name: str, *, pe_kind: str, pe_mode: str, causal: bool, norm: str = "post"
) -> list[tuple]:
    """(step symbol, formula) of every stage of the multi-head page's computation."""
    rows = [("X", r"\mathbf{x}_i = \mathrm{embed}(\mathrm{token}_i)")]
    pe = positions(pe_kind, pe_mode)
    if pe is not None:
        row = pe.split(",", 1)[1].replace(r"\quad", "").strip()  # x_i's own line
        rows.append(("X + E" if pe_mode == "add" else "[X; E]", row))
    x = PRE_LN_X if norm == "pre" else "X"
    if norm == "pre":
        rows.append((x, r"\mathrm{LN}(X)"))
    rows += [
        (r"W_h^Q, W_h^K, W_h^V", r"\in \mathbb{R}^{D \times D'},\ h = 1, \dots, H"),
        (r"W^O", r"\in \mathbb{R}^{D'H \times D}"),
        ("Q_h, K_h, V_h", rf"{x} W_h^Q,\ {x} W_h^K,\ {x} W_h^V"),
        ("S_h", head_scores(score_name)),
        ("A_h", r"\mathrm{softmax}(S_h + M)" if causal else r"\mathrm{softmax}(S_h)"),
        (r"\mathrm{head}_h", r"A_h V_h"),
        ("concat", r"[\mathrm{head}_1, \dots, \mathrm{head}_H]"),
        (r"\mathcal{A}^M", r"[\mathrm{head}_1, \dots, \mathrm{head}_H]\, W^O"),
    ]
    return rows


def block(norm: str, activation: str = "relu") -> str:
    """S13 (post-LN), S14 (pre-LN) or the no-LN contrast, with the FFN's activation."""
    act = ACTIVATIONS[activation]
    # Y: the FFN's input, one row per token (H is the number of heads)
    ffn = (  # broken before the second bias: the block's longest line, in a third of a page
        rf"\mathrm{{FFN}}(Y) = {act}(Y W_1 + \mathbf{{1}} b_1^\top)\, W_2 \\"
        r" &\quad + \mathbf{1} b_2^\top"
    )
    body = {
        "post": r"Q' &= \mathrm{LN}(X + \mathcal{A}^M(X)) \\ \mathrm{out} &= \mathrm{LN}(Q' +"
        r" \mathrm{FFN}(Q'))",
        "pre": r"X' &= X + \mathcal{A}^M(\mathrm{LN}(X)) \\ \mathrm{out} &= X' +"
        r" \mathrm{FFN}(\mathrm{LN}(X'))",
        "none": r"X' &= X + \mathcal{A}^M(X) \\ \mathrm{out} &= X' + \mathrm{FFN}(X')",
    }[norm]
    return rf"\begin{{aligned}}{body} \\ {ffn.replace('=', '&=', 1)}\end{{aligned}}"


LAYER_NORM = (
    r"\mathrm{LN}(\mathbf{x}) = \gamma \odot \frac{\mathbf{x} - \mu}{\sqrt{\sigma^2 +"
    r" \epsilon}} + \beta,\qquad \mu = \tfrac{1}{D}\sum_{d} x_d,\ "
    r"\sigma^2 = \tfrac{1}{D}\sum_d (x_d - \mu)^2"
)


def grad_scale(x_scale: str) -> str:
    """The last layer's gradient against depth L at initialisation (Xiong et al. 2020), for
    inputs of unit size ("unit") or √D times larger ("sqrt_d"): then ‖x_0‖² = D² outweighs
    what L blocks add to the stream, and pre-LN's final LN divides by about the same length."""
    grad = r"\Big\|\frac{\partial \mathcal{L}}{\partial W_2^{(L)}}\Big\|"
    pre = r"O\!\big(1/\sqrt{L}\big)" if x_scale == "unit" else r"O(1)\ \ (\|x_0\|^2 = D^2)"
    return (
        rf"\begin{{aligned}}\text{{pre-LN: }}\ {grad} &= {pre} \\"
        rf" \text{{post-LN: }}\ {grad} &= O(1)\end{{aligned}}"
    )


def race(warm_steps: int | None) -> str:
    """The training race's two models and rate: post-LN reads X_L out directly, pre-LN
    through its final LN; η_t grows over ``warm_steps`` steps, or is η throughout (None)."""
    rate = (
        rf"\eta_t &= \eta \min(1, t / T_{{\mathrm{{warm}}}}),\ T_{{\mathrm{{warm}}}} = {warm_steps}"
        if warm_steps
        else r"\eta_t &= \eta"
    )
    return (
        r"\begin{aligned}X_0 &= E_{\mathrm{tok}}[x] + E_{\mathrm{pos}} \\"
        r" \hat y_{\text{post-LN}} &= \mathrm{softmax}(X_L W_{\mathrm{out}}) \\"
        r" \hat y_{\text{pre-LN}} &= \mathrm{softmax}(\mathrm{LN}(X_L)\, W_{\mathrm{out}}) \\"
        rf" {rate}\end{{aligned}}"
    )


def pattern_score(task: str) -> str:
    """The share of each head's weight on the keys the task reads (1-based positions)."""
    keys = {
        "copy": r"T(i) = \{i\}",
        "reverse": r"T(i) = \{n + 1 - i\}",
        "sort": r"T(i) = \{j : \mathrm{rank}(x_j) = i\}",
    }[task]
    return (
        r"\begin{aligned}\mathrm{score}^{(l,h)} &= \frac{1}{n} \sum_{i=1}^{n}"
        rf" \sum_{{j \in T(i)}} a^{{(l,h)}}_{{ij}} \\ {keys.replace('=', '&=', 1)}\end{{aligned}}"
    )


SINUSOIDAL = (  # 1-based: p_1 is position 0 of the usual 0-based table, component 1 a sine
    r"\begin{aligned}(\mathbf{p}_i)_{2k-1} &= \sin\!\big((i - 1)\,\omega_k\big) \\"
    r" (\mathbf{p}_i)_{2k} &= \cos\!\big((i - 1)\,\omega_k\big) \\"
    r" \omega_k &= 10000^{-2(k-1)/D} \\ k &= 1, \dots, D/2\end{aligned}"
)


def add_concat(d_pos_symbol: str = "D") -> str:
    """S16: the width after adding p_i, and after concatenating it (no words: both languages)."""
    return (
        r"\mathbf{x}_i + \mathbf{p}_i \in \mathbb{R}^{D},\qquad"
        rf" [\mathbf{{x}}_i; \mathbf{{p}}_i] \in \mathbb{{R}}^{{D + {d_pos_symbol}}}"
    )


def position_similarity(cosine: bool = False) -> str:
    """S_ij between positions i and j: p_iᵀp_j, or its cosine (unit-length p_i)."""
    if cosine:
        return (
            r"S_{ij} = \frac{\mathbf{p}_i^\top \mathbf{p}_j}"
            r"{\lVert \mathbf{p}_i \rVert\, \lVert \mathbf{p}_j \rVert}"
        )
    return r"S_{ij} = \mathbf{p}_i^\top \mathbf{p}_j"


def position_score(mode: str) -> str:
    """What one head scores when positions enter its input: s_ij for x_i + p_i or [x_i; p_i].

    With positions added the score has four terms, and p_iᵀ p_j (the similarity map) is
    the last of them only when W^Q W^Kᵀ = I. Concatenated, the head's width is D + D.
    """
    if mode == "add":
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


def equivariance(pe_kind: str, pe_mode: str) -> list[str]:
    """S7, S15: f(PX) = P f(X) for self-attention; why positions break it."""
    lines = [
        r"f(PX) = P\, f(X)",
        r"\begin{aligned}A(PX) &= \mathrm{softmax}\!\left(\frac{P Q K^\top P^\top}{\sqrt{D'}}"
        r"\right) \\ &= P\,A(X)\,P^\top\end{aligned}",
    ]
    if pe_kind != "none":
        op = r"PX + E" if pe_mode == "add" else r"[PX;\ E]"
        rhs = r"P(X + E)" if pe_mode == "add" else r"P[X;\ E]"
        lines.append(
            rf"\begin{{aligned}}\mathrm{{PE}}(PX) &= {op} \\ &\neq {rhs} = P\,\mathrm{{PE}}(X)"
            r"\end{aligned}"
        )
    return lines


SATURATION = [
    r"r(\mathbf{z}, \mathbf{q}) = \frac{\mathbf{z}^\top \mathbf{q}}{\sqrt{D}}",
    r"\mathrm{Var}(\mathbf{q}^\top \mathbf{k}) = \sum_{d=1}^{D} \mathrm{Var}(q_d k_d) = D",
    r"\mathrm{Var}\!\left(\frac{\mathbf{q}^\top \mathbf{k}}{\sqrt{D}}\right) = 1",
    r"\mathbf{a} = \mathrm{softmax}(\mathbf{s})",
    r"J = \frac{\partial \mathbf{a}}{\partial \mathbf{s}}"
    r" = \mathrm{diag}(\mathbf{a}) - \mathbf{a}\mathbf{a}^\top",
    r"H(\mathbf{a}) = -\sum_{j=1}^{N} a_j \log a_j \le \log N",
]
REAL_HEAD = (  # score and weight on two lines, so that a narrow column holds them
    r"\begin{aligned}s^{(l,h)}_{ij} &= \frac{(\mathbf{x}_i W^Q_h + \mathbf{b}^Q_h)"
    r"(\mathbf{x}_j W^K_h + \mathbf{b}^K_h)^\top}{\sqrt{D'}} \\"
    r" a^{(l,h)}_{ij} &= \mathrm{softmax}_j\big(s^{(l,h)}_{ij}\big)\end{aligned}"
)
ROLLOUT = r"R_l = \mathrm{rownorm}\Big(\tfrac{1}{H}\sum_h A_{l,h} + I\Big)\,R_{l-1}"


QK_CENTRING = (
    r"\mathbf{q}_i^\top (\mathbf{k}_j - \bar{\mathbf{k}}) = \mathbf{q}_i^\top \mathbf{k}_j"
    r" - \mathbf{q}_i^\top \bar{\mathbf{k}},\qquad (\mathbf{q}_i - \bar{\mathbf{q}})^\top"
    r" \mathbf{k}_j = \mathbf{q}_i^\top \mathbf{k}_j - \bar{\mathbf{q}}^\top \mathbf{k}_j"
)
SINK_SHARE = (  # P: punctuation, R: every other token (named in words beside the formula)
    r"\mathrm{share}^{(l,h)}_c = \frac{1}{N} \sum_{i=1}^{N} \sum_{j \in c} a^{(l,h)}_{ij},"
    r"\quad c \in \{[\mathrm{CLS}], [\mathrm{SEP}], \mathcal{P}, \mathcal{R}\}"
)
HIDE_RENORMALISE = (
    r"\tilde a_{ij} = \frac{a_{ij}}{\sum_{l \in \mathrm{kept}} a_{il}},\quad j \in \mathrm{kept}"
)
SINK_MOVED = (  # Kobayashi et al. 2020: a weight moves a_ij v_j W_h^O, not a_ij alone
    r"\mathrm{moved}^{(l,h)}_c = \frac{1}{N} \sum_{i=1}^{N} \frac{\sum_{j \in c}"
    r" a^{(l,h)}_{ij} \lVert \mathbf{v}_j W^O_h \rVert}{\sum_{j} a^{(l,h)}_{ij}"
    r" \lVert \mathbf{v}_j W^O_h \rVert}"
)


def heads_combined(how: str) -> str:
    """One map from the H heads of layer l: their mean (rows still sum to 1) or elementwise max."""
    return {
        "mean": r"\bar a^{(l)}_{ij} = \frac{1}{H} \sum_{h=1}^{H} a^{(l,h)}_{ij}",
        "max": r"\hat a^{(l)}_{ij} = \max_{h = 1, \dots, H} a^{(l,h)}_{ij}",
    }[how]


def qk_space(score_name: str, centre: str) -> list[str]:
    """The points of a head's query–key picture: what is centred, and the shared 2D axes."""
    query = r"\mathbf{q}_i"
    lines = []
    if score_name == "bilinear":  # the score reads W_h q_i against k_j: draw W_h q_i
        query = r"\mathbf{q}'_i"
        lines.append(
            r"\mathbf{q}'_i = W_h \mathbf{q}_i,\quad s_{ij} = \frac{\mathbf{q}'^\top_i"
            r" \mathbf{k}_j}{\sqrt{D'}}"
        )
    q_mean = r" - \bar{\mathbf{q}}" if centre == "each" else ""
    k_mean = r" - \bar{\mathbf{k}}" if centre != "none" else ""
    lines += [
        rf"\tilde{{\mathbf{{q}}}}_i = {query}{q_mean},\quad \tilde{{\mathbf{{k}}}}_j ="
        rf" \mathbf{{k}}_j{k_mean},\quad [\tilde Q; \tilde K] = U \Sigma P^\top",
        r"(x, y) = \tilde{\mathbf{q}}_i P_{:,1:2},\ \tilde{\mathbf{k}}_j P_{:,1:2},"
        r"\quad \rho_a = \sigma_a^2 \Big/ \sum_b \sigma_b^2",
    ]
    if centre != "none":
        lines.append(QK_CENTRING)
    return lines
