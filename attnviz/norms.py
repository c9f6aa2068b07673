"""Where a block puts its LayerNorms (S13, S14): one ``Placement`` per choice.

post: Q" = LN(X + MHA(X));          out = LN(FFN(Q") + Q")       (S13, the chapter"s block)
pre:  h  = X + MHA(LN(X));          out = h + FFN(LN(h))         (S14, Xiong et al., 2020)
none: h  = X + MHA(X);              out = h + FFN(h)             (the contrast: no LN)

The block, the formulas, the lessons and the pages ask the placement what it does; none
of them branches on its name.
"""

from __future__ import annotations

from dataclasses import dataclass

from .limits import check_choice


@dataclass(frozen=True)
class Placement:
    name: str
    ln_after_residual: bool  # post-LN: each sub-layer"s sum x + F(x) is normalised
    ln_before_sublayer: bool  # pre-LN: each sub-layer reads LN(x); a stack ends with an LN
    body: str  # the block"s two lines in LaTeX, aligned at &=
    label: str  # i18n key of its name
    # the stream in the order the data flows: (BlockTrace field, label in the symbols of
    # ``body``: X in, Aᴹ the multi-head attention, Q′ (post-LN) or X′ after the first sum)
    stream: tuple[tuple[str, str], ...]
    # each residual connection as (the stream added back, the field that holds the sum)
    residuals: tuple[tuple[str, str], ...]
    # the BlockTrace fields that hold LN_1's and LN_2's outputs (none without LN)
    ln_outputs: tuple[str, str] | None = None
    # and those that hold what each LN normalises
    ln_inputs: tuple[str, str] | None = None

    @property
    def has_ln(self) -> bool:
        return self.ln_after_residual or self.ln_before_sublayer

    @property
    def final_ln(self) -> bool:
        """A stack of these blocks ends with one more LN: pre-LN"s stream is never normalised
        inside the blocks, so its read-out is."""
        return self.ln_before_sublayer


POST = Placement(
    "post",
    ln_after_residual=True,
    ln_before_sublayer=False,
    body=r"Q' &= \mathrm{LN}(X + \mathcal{A}^M(X)) \\ \mathrm{out} &= \mathrm{LN}(Q' +"
    r" \mathrm{FFN}(Q'))",
    label="names.norm_post",
    stream=(
        ("resid_pre", "X"),
        ("attn_out", "Aᴹ(X)"),
        ("sum_1", "X + Aᴹ(X)"),
        ("resid_mid", "Q' = LN₁(·)"),
        ("ffn_hidden", "ReLU(Q'W₁+b₁)"),
        ("ffn_out", "FFN(Q')"),
        ("sum_2", "Q'+FFN(Q')"),
        ("resid_post", "out = LN₂(·)"),
    ),
    residuals=(
        ("resid_pre", "sum_1"),
        ("resid_mid", "sum_2"),
    ),
    ln_outputs=("resid_mid", "resid_post"),
    ln_inputs=("sum_1", "sum_2"),
)
PRE = Placement(
    "pre",
    ln_after_residual=False,
    ln_before_sublayer=True,
    body=r"X' &= X + \mathcal{A}^M(\mathrm{LN}(X)) \\ \mathrm{out} &= X' +"
    r" \mathrm{FFN}(\mathrm{LN}(X'))",
    label="names.norm_pre",
    stream=(
        ("resid_pre", "X"),
        ("attn_in", "LN₁(X)"),
        ("attn_out", "Aᴹ(LN₁(X))"),
        ("resid_mid", "X' = X + Aᴹ"),
        ("ffn_in", "LN₂(X')"),
        ("ffn_hidden", "ReLU(·W₁+b₁)"),
        ("ffn_out", "FFN(LN₂(X'))"),
        ("resid_post", "out = X' + FFN"),
    ),
    residuals=(
        ("resid_pre", "resid_mid"),
        ("resid_mid", "resid_post"),
    ),
    ln_outputs=("attn_in", "ffn_in"),
    ln_inputs=("resid_pre", "resid_mid"),
)
NONE = Placement(
    "none",
    ln_after_residual=False,
    ln_before_sublayer=False,
    body=r"X' &= X + \mathcal{A}^M(X) \\ \mathrm{out} &= X' + \mathrm{FFN}(X')",
    label="names.norm_none",
    stream=(
        ("resid_pre", "X"),
        ("attn_out", "Aᴹ(X)"),
        ("resid_mid", "X' = X + Aᴹ"),
        ("ffn_hidden", "ReLU(X'W₁+b₁)"),
        ("ffn_out", "FFN(X')"),
        ("resid_post", "out = X' + FFN"),
    ),
    residuals=(
        ("resid_pre", "resid_mid"),
        ("resid_mid", "resid_post"),
    ),
)
NORMS: dict[str, Placement] = {p.name: p for p in (POST, PRE, NONE)}


def placement(name: str) -> Placement:
    """The placement called ``name``; ValueError naming the choices otherwise."""
    return NORMS[check_choice("norm", name, NORMS)]
