"""What each source sends through a head, beside the weight it gets (Kobayashi et al. 2020):
the contribution ‖a_ij f_h(x_j)‖, heads combined, tokens left out, and rollout over it."""

from __future__ import annotations


def sent(bias: bool = True, layer: bool = True) -> str:
    """‖a_ij f_h(x_j)‖ = a_ij ‖(x_j W_h^V + b_h^V) W_h^O‖; ``bias`` False leaves out b_h^V,
    ``layer`` False the layer index (one block)."""
    up = "(l,h)" if layer else "(h)"
    b = r" + \mathbf{b}^V_h" if bias else ""
    return (
        rf"\lVert a^{{{up}}}_{{ij}}\, f_h(\mathbf{{x}}_j) \rVert = a^{{{up}}}_{{ij}}\,"
        rf"\big\lVert (\mathbf{{x}}_j W^V_h{b})\, W^O_h \big\rVert"
    )


def heads_combined(how: str) -> str:
    """One map from the H heads' contributions n_ij^(l,h) = ‖a_ij f_h(x_j)‖: mean or max."""
    return {
        "mean": r"\bar n^{(l)}_{ij} = \frac{1}{H} \sum_{h=1}^{H} n^{(l,h)}_{ij}",
        "max": r"\hat n^{(l)}_{ij} = \max_{h = 1, \dots, H} n^{(l,h)}_{ij}",
    }[how]


HIDE_KEPT = (  # contributions are not rescaled: what a kept source sends stays what it sends
    r"n_{ij},\quad i, j \in \mathrm{kept}\quad(\text{rows not rescaled})"
)
ROLLOUT_SENT = (  # Abnar & Zuidema's rollout with each row's share of what is sent; two
    # lines, so that the page's narrow column holds them
    r"\begin{aligned}C_l &= \mathrm{rownorm}\big(\textstyle\sum_h"
    r" \lVert a^{(l,h)}_{ij} f_h(\mathbf{x}_j) \rVert\big) \\"
    r" R_l &= \mathrm{rownorm}(C_l + I)\,R_{l-1}\end{aligned}"
)
