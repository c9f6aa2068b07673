"""Where the real model's heads park weight (its family's sink candidates: [CLS] and [SEP]
for BERT, the first token for GPT-2; punctuation), and the share of
what they send from there (Kobayashi et al. 2020), per layer and head: of the maps as shown
(weights or contributions, special tokens hidden or not) and of the model's own.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ... import formulas, sinks
from . import forward
from .forward import MODEL, TEXTS_CACHED, encode
from .kept import kept
from .measures import HIDDEN, MEASURES

SINKS_BYTES = 64 * 2**20  # the sink views kept per process, by their arrays' bytes

__all__ = ["HIDDEN", "Sinks", "layer_table", "sink_table", "sink_view"]


@dataclass(frozen=True)
class Sinks:
    """Where each head's weight goes, per category of sinks.CATEGORIES."""

    shares: np.ndarray  # (4, L, H) mean share of the rows on each category, of the maps shown
    raw: np.ndarray  # (4, L, H) the share of weight, of the model's own maps (nothing hidden)
    moved: np.ndarray  # (4, L, H) the share of contribution ‖a_ij f_h(x_j)‖, nothing hidden
    sink: str  # the category among [CLS], [SEP], punctuation with the most weight (raw maps)
    formulas: list[str]
    measure: str = "weights"  # what ``shares`` is of: a key of MEASURES
    present: tuple[str, ...] = sinks.CATEGORIES  # the categories some token of the text is in

    @property
    def weight(self) -> float:
        """The mean share of weight on the sink, over every row of every head (raw maps)."""
        return float(self.raw[sinks.CATEGORIES.index(self.sink)].mean())

    @property
    def carried(self) -> float:
        """The mean share of what the rows mix in that comes from the sink."""
        return float(self.moved[sinks.CATEGORIES.index(self.sink)].mean())

    def layers(self) -> np.ndarray:
        """(2, 4, L): per layer, the share of weight (0) and of contribution (1) on each
        category, averaged over the heads and the rows (the model's own maps)."""
        return np.stack([self.raw.mean(-1), self.moved.mean(-1)])

    def largest_gap(self) -> tuple[str, int, float, float]:
        """(category, layer from 0, share of weight, share of contribution) where the share
        of weight on [CLS], [SEP] or punctuation most exceeds its share of contribution."""
        layers = self.layers()[:, :3]  # (2, 3, L)
        gap = layers[0] - layers[1]  # (3, L)
        absent = [c for c in range(3) if sinks.CATEGORIES[c] not in self.present]
        gap[absent] = -np.inf  # a role no token takes (GPT-2 has no [SEP]) is never the gap
        c, layer = np.unravel_index(int(np.argmax(gap)), gap.shape)
        return (
            sinks.CATEGORIES[c],
            int(layer),
            float(layers[0, c, layer]),
            float(layers[1, c, layer]),
        )

    @property
    def idle(self) -> bool:
        """The sink takes weight but carries less than half of it: a place to park weight."""
        return self.carried < self.weight / 2


def sink_view(
    text: str, hide_special: bool = False, measure: str = "weights", model: str = MODEL
) -> Sinks:
    """The layer × head grids of where the weight goes and of the share of what is sent from
    there (model's own maps), and the grids of the ``measure`` as shown (with [CLS] and [SEP]
    hidden or not): rows divided by their sums, so each is a share. The candidates are the
    model's family's (``Encoding.roles``); a role no token takes is never the sink."""
    latex = forward.model(model).family.sink_latex
    return _sink_view(text, model, forward.files(model), hide_special, measure, latex)


@kept(SINKS_BYTES, TEXTS_CACHED)
def _sink_view(
    text: str, model: str, _files: tuple, hide_special: bool, measure: str, candidates_tex: str
) -> Sinks:
    """Keyed by the text, not by its encoding: a key holds its encoding's memory."""
    enc = encode(text, model)[0]
    roles = enc.roles or None
    raw = sinks.sink_shares(enc.attentions, enc.tokens, roles).shares
    moved = sinks.sink_shares(enc.norms, enc.tokens, roles).shares
    how = MEASURES[measure]
    shares = raw if how.rows_sum_to_one else moved
    if hide_special:
        keep, maps = how.hidden(how.maps(enc), enc.tokens, roles)
        kept_roles = [roles[i] for i in keep] if roles else None
        shares = sinks.sink_shares(maps, [enc.tokens[i] for i in keep], kept_roles).shares
    present = set(sinks.token_categories(enc.tokens, roles))
    candidates = [c for c in range(3) if c in present] or [2]
    names = tuple(sinks.CATEGORIES[c] for c in sorted(present))
    sink = sinks.CATEGORIES[max(candidates, key=lambda c: raw[c].mean())]
    lines = [formulas.sink_share(candidates_tex), formulas.SINK_MOVED]
    if hide_special:
        lines.insert(0, how.hide)
    return Sinks(shares, raw, moved, sink, lines, measure, names)


def layer_table(view: Sinks, categories: list[str]) -> pd.DataFrame:
    """Per layer (from 1), the share of weight and of contribution on each category, as
    columns (category, "weight" | "contribution")."""
    layers = view.layers()  # (2, 4, L)
    columns = pd.MultiIndex.from_tuples(
        [(c, m) for c in categories for m in ("weight", "contribution")]
    )
    data = np.stack(
        [layers[m, sinks.CATEGORIES.index(c)] for c in categories for m in range(2)], 1
    )  # (L, 2·C)
    index = pd.RangeIndex(1, data.shape[0] + 1, name="layer")
    return pd.DataFrame(data, index=index, columns=columns)


def sink_table(view: Sinks, categories: list[str]) -> pd.DataFrame:
    """The grids as rows (layer, head, category), layers and heads from 1: the share of the
    maps as shown, and of what is sent (model's own maps)."""
    L, H = view.shares.shape[1:]
    rows = [
        (layer + 1, head + 1, c, view.shares[k, layer, head], view.moved[k, layer, head])
        for c in categories
        for k in [sinks.CATEGORIES.index(c)]
        for layer in range(L)
        for head in range(H)
    ]
    return pd.DataFrame(rows, columns=["layer", "head", "category", "share", "moved"])
