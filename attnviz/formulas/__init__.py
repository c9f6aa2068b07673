"""LaTeX of the chapter's equations, generated from what a lesson computed.

The one place the app's formulas are written. Each function takes the choices that
change the arithmetic (score function, per-head width, LN placement, activation,
positional mode, masks) and returns the formula of exactly that computation, so a page
never shows an equation other than the one behind its figure. Symbols follow the
chapter: X = [x_1, …, x_N]ᵀ ∈ ℝ^{N×D} (rows are tokens), D′ the per-head width,
E = [p_1, …, p_N]ᵀ the table of positional encodings (P is kept for permutations).

attention: one query, then M (S1–S9), saturation (S3), equivariance (S7, S15); heads:
multi-head attention (S10–S12) and a head's query–key picture; transformer: the block
(S13, S14), gradients by depth, the training race; positional: encodings (S15, S16);
real_model: a real model's heads, rollout and sinks.
"""

from ..positional import SINUSOIDAL
from .attention import (
    SATURATION,
    WEIGHTED_SUM,
    equivariance,
    many_queries,
    same_as,
    saturation,
    score,
    single_query,
)
from .heads import (
    PRE_LN_INPUT,
    PRE_LN_X,
    QK_CENTRING,
    composed_projection,
    head_scores,
    multihead,
    pipeline,
    qk_scaled,
    qk_space,
)
from .positional import ROW_DIFFERENCE, add_concat, position_score, position_similarity, positions
from .real_model import (
    HIDE_RENORMALISE,
    REAL_HEAD,
    ROLLOUT,
    SINK_MOVED,
    SINK_SHARE,
    heads_combined,
    sink_share,
)
from .transformer import (
    ACTIVATIONS,
    LAYER_NORM,
    block,
    cross_entropy_loss,
    direction_loss,
    ffn_width,
    grad_scale,
    pattern_score,
    race,
)

__all__ = [
    "ACTIVATIONS",
    "HIDE_RENORMALISE",
    "LAYER_NORM",
    "PRE_LN_INPUT",
    "PRE_LN_X",
    "QK_CENTRING",
    "REAL_HEAD",
    "ROLLOUT",
    "ROW_DIFFERENCE",
    "SATURATION",
    "SINK_MOVED",
    "SINK_SHARE",
    "SINUSOIDAL",
    "WEIGHTED_SUM",
    "add_concat",
    "block",
    "composed_projection",
    "cross_entropy_loss",
    "direction_loss",
    "equivariance",
    "ffn_width",
    "grad_scale",
    "head_scores",
    "heads_combined",
    "many_queries",
    "multihead",
    "pattern_score",
    "pipeline",
    "position_score",
    "position_similarity",
    "positions",
    "qk_scaled",
    "qk_space",
    "race",
    "same_as",
    "saturation",
    "score",
    "single_query",
    "sink_share",
]
