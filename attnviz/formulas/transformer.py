"""The Transformer block (S13, S14) and what training it shows: LN, the gradient's scale
by depth, the training race and its pattern score."""

from __future__ import annotations

from ..norms import placement

ACTIVATIONS = {"relu": r"\mathrm{ReLU}", "gelu": r"\mathrm{GELU}"}


def block(norm: str, activation: str = "relu") -> str:
    """S13 (post-LN), S14 (pre-LN) or the no-LN contrast, with the FFN's activation."""
    act = ACTIVATIONS[activation]
    # Y: the FFN's input, one row per token (H is the number of heads)
    ffn = (  # broken before the second bias: the block's longest line, in a third of a page
        rf"\mathrm{{FFN}}(Y) = {act}(Y W_1 + \mathbf{{1}} b_1^\top)\, W_2 \\"
        r" &\quad + \mathbf{1} b_2^\top"
    )
    body = placement(norm).body
    return rf"\begin{{aligned}}{body} \\ {ffn.replace('=', '&=', 1)}\end{{aligned}}"


LAYER_NORM = (
    r"\mathrm{LN}(\mathbf{x}) = \gamma \odot \frac{\mathbf{x} - \mu}{\sqrt{\sigma^2 +"
    r" \epsilon}} + \beta,\qquad \mu = \tfrac{1}{D}\sum_{d} x_d,\ "
    r"\sigma^2 = \tfrac{1}{D}\sum_d (x_d - \mu)^2"
)


def ffn_width(D: int, D_ff: int) -> str:
    """S13's D_ff ≫ D for one model: its FFN's hidden width and the multiple of D it is."""
    return rf"D_{{\mathrm{{ff}}}} = {D_ff} = {D_ff / D:g}\,D,\quad D = {D}"


def cross_entropy_loss(V: int) -> str:
    """The mean cross-entropy of the read-out o_i through W_out against a target word y_i."""
    # three lines: on two the first ran past the page's left column (a third of the page)
    return (
        r"\begin{aligned}\mathcal{L} &= -\tfrac{1}{BN}\textstyle\sum_i \log \hat y_{i,\,y_i} \\"
        r" \hat y_i &= \operatorname{softmax}(o_i W_{\mathrm{out}}) \\"
        rf" W_{{\mathrm{{out}}}} &\in \mathbb{{R}}^{{D \times V}},\ V = {V}\end{{aligned}}"
    )


def direction_loss() -> str:
    """The mean of the read-out o_i along one fixed direction r."""
    return r"\mathcal{L} = \frac{1}{BN}\sum_i o_i \cdot r,\ r \sim \mathcal{N}(0, I/D)"


def grad_scale(x_scale: str) -> str:
    """The last layer's gradient against depth L at initialisation (Xiong et al. 2020), for
    inputs of unit size ("unit") or √D times larger ("sqrt_d"): then ‖x_0‖² = D² outweighs
    what L blocks add to the stream, and pre-LN's final LN divides by about the same length."""
    grad = r"\Big\|\frac{\partial \mathcal{L}}{\partial W_2^{(L)}}\Big\|"
    # the condition on a line of its own: on one line it ran past a third of the screen
    pre = r"O\!\big(1/\sqrt{L}\big)" if x_scale == "unit" else r"O(1) \\ &(\|x_0\|^2 = D^2)"
    return (
        rf"\begin{{aligned}}\text{{pre-LN: }}\ {grad} &= {pre} \\"
        rf" \text{{post-LN: }}\ {grad} &= O(1)\end{{aligned}}"
    )


def race(warm_steps: int | None) -> str:
    """The training race's two models and rate: post-LN reads X_L out directly, pre-LN
    through its final LN; η_t grows over ``warm_steps`` steps, or is η throughout (None)."""
    rate = (
        rf"\eta_t &= \eta \min(1, t / T_{{\mathrm{{warm}}}}) \\"
        rf" T_{{\mathrm{{warm}}}} &= {warm_steps}"
        if warm_steps
        else r"\eta_t &= \eta"
    )
    return (
        r"\begin{aligned}X_0 &= E_{\mathrm{tok}}[x] + E_{\mathrm{pos}} \\"
        r" \hat y_{\text{post}} &= \mathrm{softmax}(X_L W_{\mathrm{out}}) \\"
        r" \hat y_{\text{pre}} &= \mathrm{softmax}(\mathrm{LN}(X_L) W_{\mathrm{out}}) \\"
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
