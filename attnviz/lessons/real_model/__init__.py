"""Reading a real model's attention: one head, heads combined, special tokens hidden, or
rollout after a layer (``forward``), and the picture of every head. Where the heads park
weight is ``sinks``'s; one weight followed through its formula and a head's query–key
space are ``probe``'s.

The model is the shipped all-MiniLM-L6-v2 or one the server lists (``models``), run by
attnviz's own blocks (``attnviz.pretrained``); its family (BERT, GPT-2) says its LN
placement, whether its maps are causal and which tokens are its sink candidates, and its
config its number of layers L and heads H. Each map shows the weights a_ij or the
contributions ‖a_ij f_h(x_j)‖ (``measures``); a causal model's cells j > i are masked.
Hiding the sink candidates ([CLS] and [SEP], GPT-2's first token) drops their rows and
columns, and rescales each row of weights to 1 (``attnviz.sinks.hide_and_renormalise``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ... import formulas
from ...charts.real_model import Mosaic, mosaic
from ...families import ROLES
from ...limits import check_choice, check_int
from ...sinks import CATEGORIES, hide_and_renormalise
from ...text import has_japanese, token_labels
from .forward import (
    MODEL,
    TEXTS_CACHED,
    check_model,
    check_text,
    encode,
    files,
    model,
    rownorm,
    size,
)
from .kept import kept
from .measures import HIDDEN, MEASURES
from .sinks import Sinks, sink_view

VIEWS = ("model", "head", "rollout")  # every head of every layer, one layer, rollout
COMBINE = ("mean", "max")
CSV_ALL_MAX_N = 64  # the every-layer-and-head table is offered up to this many tokens
MOSAIC_TOP = 99  # the mosaic of contributions colours up to this percentile of them all
MOSAIC_BYTES = 128 * 2**20  # the mosaics kept per process, by their pictures' bytes


@dataclass(frozen=True)
class Config:
    text: str
    view: str = "model"
    layer: int = 2  # in [0, L − 1]
    head: int = 0  # in [0, H − 1]; the "model" view outlines it, the "head" view draws it
    combine: str | None = None  # "head" view only: None = one head, else mean / max over heads
    hide_special: bool = False  # leave [CLS] and [SEP] out of the map (weights: rows → 1)
    measure: str = "weights"  # what a cell shows: a key of MEASURES
    model: str = MODEL  # the shipped model's name or a listed folder (``models``)

    def __post_init__(self) -> None:
        check_model(self.model)
        check_text(self.text, self.model)
        check_choice("view", self.view, VIEWS)
        check_choice("measure", self.measure, MEASURES)
        if self.combine is not None:
            check_choice("combine", self.combine, COMBINE)
        L, H = size(self.model)
        check_int("layer", self.layer, 0, L - 1)
        check_int("head", self.head, 0, H - 1)

    @property
    def one_head(self) -> bool:
        """The map drawn is head ``head`` of layer ``layer`` (not combined, not rollout)."""
        return self.view == "model" or (self.view == "head" and not self.combine)


@dataclass(frozen=True)
class Result:
    tokens: list[str]  # all N tokens, special ones included ([CLS] … [SEP] for BERT)
    truncated: bool  # the text had more tokens than the page reads and was cut
    japanese: bool  # the text holds Japanese, which the model reads as the tokens above
    unknown: int  # tokens the vocabulary lacks, read as its unknown token ([UNK]): 0 for none
    keep: np.ndarray  # (N_keep,) positions of the tokens shown
    shown_tokens: list[str]  # the tokens at ``keep``
    labels: list[str]  # "i:token" of the tokens shown (from 1), for CSV headers
    shown: np.ndarray  # (N_keep, N_keep) the map drawn, rows = queries, float32
    lines: np.ndarray  # (N_keep, N_keep) each row's share of ``shown``: the lines view's
    rows_are_shares: bool  # the map's rows sum to 1 (weights, rollout): hiding rescales them
    zmax: float  # top of the colour scale: 1 for weights (their largest left when [CLS]/[SEP]
    # hide), the largest value for contributions and rollout
    maps: np.ndarray | None  # (L, H, N, N) of the measure, for the all-heads CSV; None over
    # CSV_ALL_MAX_N tokens
    mosaic: Mosaic | None  # "model" view: every head of every layer as one picture
    mosaic_top: float  # the value of the mosaic's top colour (above it: the top colour)
    png: bytes | None  # that picture as PNG
    formulas: list[str]  # LaTeX of what was computed
    sinks: Sinks  # where every head's weight goes, as shown (special tokens hidden or not)
    masked: np.ndarray | None  # (N_keep, N_keep) True where the causal mask forbids a_ij
    # (key after query); None for a bidirectional model
    family: str  # the model's family as shown: "BERT", "GPT-2"
    norm: str  # its LN placement: a key of attnviz.norms.NORMS
    roles: tuple[str | None, ...]  # each token's sink role ("cls", "sep") or None
    role_labels: dict[str, str]  # the string key naming each role the family has

    def categories(self, among: Sequence[str] = CATEGORIES) -> list[str]:
        """The categories of ``among`` this model has: its family's roles ([CLS] and [SEP],
        or GPT-2's first token), punctuation, the rest."""
        return [c for c in among if c not in ROLES or c in self.role_labels]

    def category_key(self, c: str) -> str:
        """The string key naming the category ``c`` for this model's family."""
        return self.role_labels.get(c, f"real_model.sink_{c}")


def combine_heads(weights: np.ndarray, how: str = "mean") -> np.ndarray:
    """Heads (k, N, N) → one map (N, N): their mean (rows still sum to 1) or elementwise max."""
    check_choice("how", how, COMBINE)
    weights = np.asarray(weights, dtype=np.float32)
    if weights.ndim != 3 or weights.shape[0] == 0:
        raise ValueError(f"weights must have shape (k, N, N) with k ≥ 1, got {weights.shape}")
    return weights.mean(0) if how == "mean" else weights.max(0)


def mosaic_top(maps: np.ndarray, rows_sum_to_one: bool) -> float:
    """The mosaic's top colour: 1 for weights; for contributions, whose few largest would
    leave every other tile dark, the ``MOSAIC_TOP``-th percentile of them all."""
    return 1.0 if rows_sum_to_one else float(percentile(maps, MOSAIC_TOP))


def percentile(maps: np.ndarray, q: float) -> np.floating:
    """``np.percentile(maps, q)`` (its "linear" method), the same number, read from each
    layer's largest values in turn rather than from a sorted copy of every map: of
    (L, H, 512, 512) float32 maps (75 MB) it copies one layer (12.6 MB) at a time, and
    keeps the top (100 − q) % of each."""
    maps = np.asarray(maps)
    n = maps.size
    if maps.ndim < 2 or n < 2 or maps.dtype != np.float32:
        return np.percentile(maps, q)
    virtual = n * (q / 100) + (1 + (q / 100) * -1) - 1  # numpy's index: (n − 1) q / 100
    lo = min(max(int(np.floor(virtual)), 0), n - 1)
    hi = min(lo + 1, n - 1)
    m = n - lo  # the values of rank lo and above (ascending), the largest m of them all
    tops = []
    for layer in maps:  # the largest m of each layer hold the largest m of them all
        flat = layer.ravel()
        if np.isnan(flat).any():
            return np.percentile(maps, q)
        tops.append(
            np.partition(flat, flat.size - m)[flat.size - m :].copy() if flat.size > m else flat
        )
    top = np.concatenate(tops)
    at = top.size - m  # rank lo of them all is rank ``at`` of ``top``
    top.partition([at, at + hi - lo])
    a, b = top[at], top[at + hi - lo]
    t = float(virtual - lo)
    diff = b - a  # numpy's _lerp, in float32 as there: a + (b − a) t, or b − (b − a)(1 − t)
    return b - diff * (1 - t) if t >= 0.5 else a + diff * t


def model_mosaic(text: str, measure: str = "weights", name: str = MODEL):
    """Every head of every layer as one picture, its PNG (the slow part) and the value of its
    top colour, once per text, measure and model; a causal model's masked cells grey."""
    return _model_mosaic(text, name, files(name), measure, model(name).arch.causal)


@kept(MOSAIC_BYTES, TEXTS_CACHED)
def _model_mosaic(
    text: str, name: str, _files: tuple, measure: str, causal: bool
) -> tuple[Mosaic, bytes, float]:
    """Keyed by the text, not by its encoding: a key holds its encoding's memory."""
    enc = encode(text, name)[0]
    how = MEASURES[measure]
    maps = how.maps(enc)
    top = mosaic_top(maps, how.rows_sum_to_one)
    m = mosaic(maps, zmax=top, causal=causal)
    m.rgb.flags.writeable = False
    return m, m.png(), top


def run(cfg: Config) -> Result:
    """The map the view shows (one head, heads combined, or rollout after a layer) of the
    measure chosen, the tokens it keeps, and in the "model" view the picture of every head."""
    enc, rolled, _ = encode(cfg.text, cfg.model)
    net = model(cfg.model)
    roles = enc.roles or None
    how = MEASURES[cfg.measure]
    rollout = cfg.view == "rollout"
    rescaled = how.rows_sum_to_one or rollout  # rollout's rows are shares of either measure

    def hidden(maps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(kept positions, maps): all, or without [CLS]/[SEP], rows rescaled where they
        sum to 1 (weights, rollout), left as they are where not (contributions)."""
        if not cfg.hide_special:
            return np.arange(len(enc.tokens)), maps
        if rescaled:
            return hide_and_renormalise(maps, enc.tokens, HIDDEN, roles)
        return how.hidden(maps, enc.tokens, roles)

    maps = how.maps(enc)  # (L, H, N, N)
    if rollout:
        keep, full = hidden(rolled[how.field][cfg.layer])
    elif cfg.view == "head" and cfg.combine:
        keep, heads = hidden(maps[cfg.layer])  # each head hidden, then combined
        full = combine_heads(heads, cfg.combine)
    else:
        keep, full = hidden(maps[cfg.layer, cfg.head])
    shown = np.array(full, dtype=np.float32)  # (N_keep, N_keep), a copy
    shown_tokens = [enc.tokens[i] for i in keep]
    model_view = cfg.view == "model"
    m, png, top = model_mosaic(cfg.text, cfg.measure, cfg.model) if model_view else (None, None, 1)
    shown_formulas = list(how.rollout if rollout else how.cell)
    if cfg.view == "head" and cfg.combine:
        shown_formulas.append(how.combined(cfg.combine))
    if cfg.hide_special:
        shown_formulas.append(formulas.HIDE_RENORMALISE if rescaled else how.hide)
    return Result(
        tokens=enc.tokens,
        truncated=enc.truncated,
        japanese=has_japanese(cfg.text),
        unknown=sum(tok == net.unknown_token for tok in enc.tokens) if net.unknown_token else 0,
        keep=keep,
        shown_tokens=shown_tokens,
        labels=token_labels(shown_tokens, keep, escape=False),
        shown=shown,
        lines=shown if rescaled else rownorm(shown),
        rows_are_shares=rescaled,
        zmax=1.0 if rescaled and not cfg.hide_special else float(shown.max()),
        maps=maps if len(enc.tokens) <= CSV_ALL_MAX_N else None,
        mosaic=m,
        png=png,
        mosaic_top=float(top),
        formulas=shown_formulas,
        sinks=sink_view(cfg.text, cfg.hide_special, cfg.measure, cfg.model),
        masked=(keep[None, :] > keep[:, None]) if net.arch.causal else None,
        family=net.family.label,
        norm=net.arch.norm,
        roles=enc.roles,
        role_labels=dict(net.family.role_labels),
    )
