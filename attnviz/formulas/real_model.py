"""A real model's attention: a head with biases, rollout, heads combined, and sinks."""

from __future__ import annotations

REAL_HEAD = (  # score and weight on two lines, so that a narrow column holds them
    r"\begin{aligned}s^{(l,h)}_{ij} &= \frac{(\mathbf{x}_i W^Q_h + \mathbf{b}^Q_h)"
    r"(\mathbf{x}_j W^K_h + \mathbf{b}^K_h)^\top}{\sqrt{D'}} \\"
    r" a^{(l,h)}_{ij} &= \mathrm{softmax}_j\big(s^{(l,h)}_{ij}\big)\end{aligned}"
)
ROLLOUT = r"R_l = \mathrm{rownorm}\Big(\tfrac{1}{H}\sum_h A_{l,h} + I\Big)\,R_{l-1}"


def heads_combined(how: str) -> str:
    """One map from the H heads of layer l: their mean (rows still sum to 1) or elementwise max."""
    return {
        "mean": r"\bar a^{(l)}_{ij} = \frac{1}{H} \sum_{h=1}^{H} a^{(l,h)}_{ij}",
        "max": r"\hat a^{(l)}_{ij} = \max_{h = 1, \dots, H} a^{(l,h)}_{ij}",
    }[how]


def sink_share(candidates: str = r"[\mathrm{CLS}], [\mathrm{SEP}]") -> str:
    """share_c over the categories: the family's sink ``candidates`` (LaTeX: BERT's
    [CLS], [SEP]; GPT-2's first token), P punctuation, R every other token (named in words
    beside the formula)."""
    return (
        r"\mathrm{share}^{(l,h)}_c = \frac{1}{N} \sum_{i=1}^{N} \sum_{j \in c} a^{(l,h)}_{ij},"
        rf"\quad c \in \{{{candidates}, \mathcal{{P}}, \mathcal{{R}}\}}"
    )


SINK_SHARE = sink_share()  # BERT's
HIDE_RENORMALISE = (
    r"\tilde a_{ij} = \frac{a_{ij}}{\sum_{l \in \mathrm{kept}} a_{il}},\quad j \in \mathrm{kept}"
)
SINK_MOVED = (  # Kobayashi et al. 2020: a weight moves a_ij v_j W_h^O, not a_ij alone
    r"\mathrm{moved}^{(l,h)}_c = \frac{1}{N} \sum_{i=1}^{N} \frac{\sum_{j \in c}"
    r" a^{(l,h)}_{ij} \lVert \mathbf{v}_j W^O_h \rVert}{\sum_{j} a^{(l,h)}_{ij}"
    r" \lVert \mathbf{v}_j W^O_h \rVert}"
)
