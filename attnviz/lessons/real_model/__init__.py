"""Reading a real model's attention: one head, heads combined, special tokens hidden, or
rollout after a layer (``forward``), and the picture of every head. Where the heads park
weight is ``sinks``'s; one weight followed through its formula and a head's query–key
space are ``probe``'s.

The model is all-MiniLM-L6-v2 run by attnviz's own blocks (``attnviz.pretrained``); its
number of layers L and heads H come from the model's own config. Hiding [CLS] and [SEP]
drops their rows and columns and rescales each row to 1
(``attnviz.sinks.hide_and_renormalise``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ... import formulas
from ...charts.real_model import Mosaic, mosaic
from ...limits import check_choice, check_int
from ...sinks import hide_and_renormalise
from ...text import has_japanese, token_labels
from .forward import TEXTS_CACHED, check_text, encode, size
from .sinks import HIDDEN, Sinks, sink_view

VIEWS = ("model", "head", "rollout")  # every head of every layer, one layer, rollout
COMBINE = ("mean", "max")
CSV_ALL_MAX_N = 64  # the every-layer-and-head table is offered up to this many tokens


@dataclass(frozen=True)
class Config:
    text: str
    view: str = "model"
    layer: int = 2  # in [0, L − 1]
    head: int = 0  # in [0, H − 1]; the "model" view outlines it, the "head" view draws it
    combine: str | None = None  # "head" view only: None = one head, else mean / max over heads
    hide_special: bool = False  # leave [CLS] and [SEP] out of the map, rows rescaled to 1

    def __post_init__(self) -> None:
        check_text(self.text)
        check_choice("view", self.view, VIEWS)
        if self.combine is not None:
            check_choice("combine", self.combine, COMBINE)
        L, H = size()
        check_int("layer", self.layer, 0, L - 1)
        check_int("head", self.head, 0, H - 1)

    @property
    def one_head(self) -> bool:
        """The map drawn is head ``head`` of layer ``layer`` (not combined, not rollout)."""
        return self.view == "model" or (self.view == "head" and not self.combine)


@dataclass(frozen=True)
class Result:
    tokens: list[str]  # all N WordPiece tokens, [CLS] … [SEP]
    truncated: bool  # the text had more than the model's 512 tokens and was cut
    japanese: bool  # the text holds Japanese, which the model reads as the tokens above
    keep: np.ndarray  # (N_keep,) positions of the tokens shown
    shown_tokens: list[str]  # the tokens at ``keep``
    labels: list[str]  # "i:token" of the tokens shown (from 1), for CSV headers
    shown: np.ndarray  # (N_keep, N_keep) the map drawn, rows = queries, float32
    zmax: float  # top of the colour scale: 1, or the largest weight left when [CLS]/[SEP] hide
    attentions: np.ndarray | None  # (L, H, N, N) for the all-heads CSV; None over CSV_ALL_MAX_N
    mosaic: Mosaic | None  # "model" view: every head of every layer as one picture
    png: bytes | None  # that picture as PNG
    formulas: list[str]  # LaTeX of what was computed
    sinks: Sinks  # where every head's weight goes, as shown (special tokens hidden or not)


def combine_heads(weights: np.ndarray, how: str = "mean") -> np.ndarray:
    """Heads (k, N, N) → one map (N, N): their mean (rows still sum to 1) or elementwise max."""
    check_choice("how", how, COMBINE)
    weights = np.asarray(weights, dtype=np.float32)
    if weights.ndim != 3 or weights.shape[0] == 0:
        raise ValueError(f"weights must have shape (k, N, N) with k ≥ 1, got {weights.shape}")
    return weights.mean(0) if how == "mean" else weights.max(0)


@lru_cache(maxsize=TEXTS_CACHED)
def model_mosaic(text: str) -> tuple[Mosaic, bytes]:
    """Every head of every layer as one picture and its PNG (the slow part), once per text."""
    m = mosaic(encode(text)[0].attentions)
    m.rgb.flags.writeable = False
    return m, m.png()


def run(cfg: Config) -> Result:
    """The map the view shows (one head, heads combined, or rollout after a layer), the
    tokens it keeps, and in the "model" view the picture of every head."""
    enc, rolled, _ = encode(cfg.text)

    def hidden(maps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(kept positions, maps): all, or without [CLS]/[SEP] and each row rescaled to 1."""
        if not cfg.hide_special:
            return np.arange(len(enc.tokens)), maps
        return hide_and_renormalise(maps, enc.tokens, HIDDEN)

    if cfg.view == "rollout":
        keep, full = hidden(rolled[cfg.layer])
    elif cfg.view == "head" and cfg.combine:
        keep, heads = hidden(enc.attentions[cfg.layer])  # each head renormalised, then combined
        full = combine_heads(heads, cfg.combine)
    else:
        keep, full = hidden(enc.attentions[cfg.layer, cfg.head])
    shown = np.array(full, dtype=np.float32)  # (N_keep, N_keep), a copy
    shown_tokens = [enc.tokens[i] for i in keep]
    m, png = model_mosaic(cfg.text) if cfg.view == "model" else (None, None)
    shown_formulas = [formulas.ROLLOUT if cfg.view == "rollout" else formulas.REAL_HEAD]
    if cfg.view == "head" and cfg.combine:
        shown_formulas.append(formulas.heads_combined(cfg.combine))
    if cfg.hide_special:
        shown_formulas.append(formulas.HIDE_RENORMALISE)
    return Result(
        tokens=enc.tokens,
        truncated=enc.truncated,
        japanese=has_japanese(cfg.text),
        keep=keep,
        shown_tokens=shown_tokens,
        labels=token_labels(shown_tokens, keep, escape=False),
        shown=shown,
        zmax=float(shown.max()) if cfg.hide_special else 1.0,
        attentions=enc.attentions if len(enc.tokens) <= CSV_ALL_MAX_N else None,
        mosaic=m,
        png=png,
        formulas=shown_formulas,
        sinks=sink_view(cfg.text, cfg.hide_special),
    )
