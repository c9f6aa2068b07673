"""What the real-model page's maps show: the weights a_ij, or the contributions
n_ij = ‖a_ij f_h(x_j)‖, f_h(x_j) = (x_j W_h^V + b_h^V) W_h^O (Kobayashi et al. 2020): the
length of what source j sends to query i through head h. Each is one ``Measure``: which
arrays of ``forward.encode`` it reads, how hiding [CLS] and [SEP] treats its rows, and the
formulas of its cells, heads combined and rollout.

Weights' rows sum to 1, so hiding tokens rescales them (``sinks.hide_and_renormalise``);
contributions' rows do not, so hiding only leaves rows and columns out: what a kept source
sends stays what it sends. Where a share is meant (sinks, rollout), rows are divided by
their sum.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ... import formulas, sinks
from ...formulas import contributions
from ...pretrained import Encoding

HIDDEN = ("cls", "sep")  # the categories of sinks.CATEGORIES that "hide special" leaves out


@dataclass(frozen=True)
class Measure:
    """One quantity per cell (layer, head, query i, key j) that the maps can show."""

    name: str  # key in MEASURES and in the strings (real_model.measure_<name>)
    field: str  # the Encoding's (L, H, N, N) array
    rows_sum_to_one: bool  # True: hiding tokens rescales each row to 1
    cell: tuple[str, ...]  # LaTeX of one cell
    rollout: tuple[str, ...]  # LaTeX of the rollout over it
    hide: str  # LaTeX of a map with [CLS] and [SEP] left out
    column: str  # the value's column in the tables of every map (CSV)

    def maps(self, enc: Encoding) -> np.ndarray:
        """(L, H, N, N) every layer's and head's map."""
        return getattr(enc, self.field)

    def combined(self, how: str) -> str:
        """LaTeX of the heads of one layer combined by ``how`` (mean or max)."""
        combine = formulas.heads_combined if self.rows_sum_to_one else contributions.heads_combined
        return combine(how)

    def hidden(
        self, maps: np.ndarray, tokens: Sequence[str], roles: sinks.Roles = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """(kept positions, maps (…, N_keep, N_keep)) without the sink candidates ([CLS] and
        [SEP], GPT-2's first token: ``roles``): weights rescaled to rows of 1, contributions
        as they are."""
        if self.rows_sum_to_one:
            return sinks.hide_and_renormalise(maps, tokens, HIDDEN, roles)
        keep = sinks.kept_positions(tokens, HIDDEN, roles)
        return keep, np.asarray(maps)[..., keep[:, None], keep]


MEASURES = {
    "weights": Measure(
        "weights",
        "attentions",
        True,
        (formulas.REAL_HEAD,),
        (formulas.ROLLOUT,),
        formulas.HIDE_RENORMALISE,
        "weight",
    ),
    "contributions": Measure(
        "contributions",
        "norms",
        False,
        (formulas.REAL_HEAD, contributions.sent()),
        (contributions.sent(), contributions.ROLLOUT_SENT),
        contributions.HIDE_KEPT,
        "contribution",
    ),
}
