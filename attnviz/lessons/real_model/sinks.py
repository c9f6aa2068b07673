"""Where the real model's heads park weight ([CLS], [SEP], punctuation), of the maps as
shown and of what that weight moves (Kobayashi et al. 2020), per layer and head.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd
import torch

from ... import formulas, sinks
from .forward import TEXTS_CACHED, encode, model

HIDDEN = ("cls", "sep")  # the categories of sinks.CATEGORIES that "hide special" leaves out


@dataclass(frozen=True)
class Sinks:
    """Where each head's weight goes, per category of sinks.CATEGORIES."""

    shares: np.ndarray  # (4, L, H) mean share of the rows' weight on each category, as shown
    raw: np.ndarray  # (4, L, H) the same of the model's own maps (nothing hidden)
    moved: np.ndarray  # (4, L, H) its share of what the rows mix in, weighted by ‖v_j W_h^O‖
    sink: str  # the category among [CLS], [SEP], punctuation with the most weight (raw maps)
    formulas: list[str]

    @property
    def weight(self) -> float:
        """The mean share of weight on the sink, over every row of every head (raw maps)."""
        return float(self.raw[sinks.CATEGORIES.index(self.sink)].mean())

    @property
    def carried(self) -> float:
        """The mean share of what the rows mix in that comes from the sink."""
        return float(self.moved[sinks.CATEGORIES.index(self.sink)].mean())

    @property
    def idle(self) -> bool:
        """The sink takes weight but carries less than half of it: a place to park weight."""
        return self.carried < self.weight / 2


@torch.inference_mode()
def moved_shares(text: str) -> np.ndarray:
    """(4, L, H): per head, the mean over rows i of Σ_{j∈c} a_ij ‖v_j W_h^O‖ / Σ_j a_ij ‖v_j W_h^O‖
    (Kobayashi et al. 2020: a weight moves a_ij v_j W_h^O, so a short v_j moves little)."""
    enc = encode(text)[0]
    onehot = np.eye(len(sinks.CATEGORIES))[sinks.token_categories(enc.tokens)]  # (N, 4)
    out = np.empty((len(sinks.CATEGORIES), *enc.attentions.shape[:2]))
    for layer, block in enumerate(model().stack.blocks):
        mha = block.attn
        x = torch.from_numpy(encode(text)[2][layer].copy()).to(mha.W_V.device)  # (N, D)
        V = torch.einsum("nd,hde->hne", x, mha.W_V) + mha.b_V[:, None]  # (H, N, D')
        norms = torch.einsum("hne,hef->hnf", V, mha.W_O).norm(dim=-1).double().cpu().numpy()
        moved = enc.attentions[layer] * norms[:, None, :]  # (H, N, N): a_ij ‖v_j W_h^O‖
        out[:, layer] = np.moveaxis((moved @ onehot) / moved.sum(-1, keepdims=True), -1, 0).mean(
            -1
        )  # (4, H)
    return out


@lru_cache(maxsize=TEXTS_CACHED)
def sink_view(text: str, hide_special: bool = False) -> Sinks:
    """The layer × head grids of where the weight goes, of the maps as shown (raw, or with
    [CLS] and [SEP] hidden and the rows rescaled), and of what that weight moves (raw)."""
    enc = encode(text)[0]
    raw = sinks.sink_shares(enc.attentions, enc.tokens).shares
    shares = raw
    if hide_special:
        keep, maps = sinks.hide_and_renormalise(enc.attentions, enc.tokens, HIDDEN)
        shares = sinks.sink_shares(maps, [enc.tokens[i] for i in keep]).shares
    sink = sinks.CATEGORIES[int(raw[:3].mean((1, 2)).argmax())]
    lines = [formulas.SINK_SHARE, formulas.SINK_MOVED]
    if hide_special:
        lines.insert(0, formulas.HIDE_RENORMALISE)
    return Sinks(shares, raw, moved_shares(text), sink, lines)


def sink_table(view: Sinks, categories: list[str]) -> pd.DataFrame:
    """The grids as rows (layer, head, category), layers and heads from 1: the share of
    weight as shown, and of what it moves (model's own maps)."""
    L, H = view.shares.shape[1:]
    rows = [
        (layer + 1, head + 1, c, view.shares[k, layer, head], view.moved[k, layer, head])
        for c in categories
        for k in [sinks.CATEGORIES.index(c)]
        for layer in range(L)
        for head in range(H)
    ]
    return pd.DataFrame(rows, columns=["layer", "head", "category", "share", "moved"])
