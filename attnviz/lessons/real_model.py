"""Reading a real model's attention: one head, heads combined, special tokens hidden, rollout.

The model is all-MiniLM-L6-v2 run by attnviz's own blocks (``attnviz.pretrained``); its
number of layers L and heads H come from the model's own config. Attention rollout
(Abnar & Zuidema 2020) follows attention through the residual stream:

    Ã_l = rownorm( mean_h A_l,h + I )          (N, N), each row sums to 1
    R_1 = Ã_1,   R_l = Ã_l R_{l-1}             how much token j feeds token i after l layers

Adding I accounts for the residual connection around attention; rows of R_l still sum to 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .. import formulas
from ..charts.real_model import Mosaic, mosaic
from ..errors import InputError
from ..limits import MAX_TEXT_CHARS, check_choice, check_int
from ..pretrained import Encoding, PretrainedEncoder, load_pretrained
from ..text import token_labels

MODEL = "all-MiniLM-L6-v2"
VIEWS = ("model", "head", "rollout")  # every head of every layer, one layer, rollout
COMBINE = ("mean", "max")
SPECIAL = ("[CLS]", "[SEP]")
CSV_ALL_MAX_N = 64  # the every-layer-and-head table is offered up to this many tokens
TEXTS_CACHED = 32  # encodings and mosaics kept per process, one per text


def model() -> PretrainedEncoder:
    """The model, loaded once per process (``load_pretrained`` keeps it)."""
    return load_pretrained(MODEL)


def size(name: str = MODEL) -> tuple[int, int]:
    """(L, H): the model's layers and heads per layer, from its own config."""
    net = load_pretrained(name)
    return net.L, net.H


@dataclass(frozen=True)
class Config:
    text: str
    view: str = "model"
    layer: int = 2  # in [0, L − 1]
    head: int = 0  # in [0, H − 1]; the "model" view outlines it, the "head" view draws it
    combine: str | None = None  # "head" view only: None = one head, else mean / max over heads
    hide_special: bool = False  # leave [CLS] and [SEP] out of the map

    def __post_init__(self) -> None:
        if not isinstance(self.text, str):
            raise ValueError(f"text must be a string, got {type(self.text).__name__}")
        if len(self.text) > MAX_TEXT_CHARS:
            raise InputError(
                f"text must be at most {MAX_TEXT_CHARS} characters, got {len(self.text)}",
                "text_long",
                hi=MAX_TEXT_CHARS,
                value=len(self.text),
            )
        if not self.text.strip():
            hi = model().max_tokens
            raise InputError("text must contain at least 1 token", "no_tokens", hi=hi)
        check_choice("view", self.view, VIEWS)
        if self.combine is not None:
            check_choice("combine", self.combine, COMBINE)
        L, H = size()
        check_int("layer", self.layer, 0, L - 1)
        check_int("head", self.head, 0, H - 1)


@dataclass(frozen=True)
class Result:
    tokens: list[str]  # all N WordPiece tokens, [CLS] … [SEP]
    truncated: bool  # the text had more than the model's 512 tokens and was cut
    keep: np.ndarray  # (N_keep,) positions of the tokens shown
    shown_tokens: list[str]  # the tokens at ``keep``
    labels: list[str]  # "i:token" of the tokens shown, for CSV headers
    shown: np.ndarray  # (N_keep, N_keep) the map drawn, rows = queries, float32
    zmax: float  # top of the colour scale: 1, or the largest weight left when [CLS]/[SEP] hide
    attentions: np.ndarray | None  # (L, H, N, N) for the all-heads CSV; None over CSV_ALL_MAX_N
    mosaic: Mosaic | None  # "model" view: every head of every layer as one picture
    png: bytes | None  # that picture as PNG
    formulas: list[str]  # LaTeX of what was computed


def combine_heads(weights: np.ndarray, how: str = "mean") -> np.ndarray:
    """Heads (k, N, N) → one map (N, N): their mean (rows still sum to 1) or elementwise max."""
    check_choice("how", how, COMBINE)
    weights = np.asarray(weights, dtype=np.float32)
    if weights.ndim != 3 or weights.shape[0] == 0:
        raise ValueError(f"weights must have shape (k, N, N) with k ≥ 1, got {weights.shape}")
    return weights.mean(0) if how == "mean" else weights.max(0)


def keep_positions(tokens: list[str], hide_special: bool) -> np.ndarray:
    """Indices of the tokens to show: all, or all but [CLS] and [SEP] (never none)."""
    keep = [i for i, tok in enumerate(tokens) if not (hide_special and tok in SPECIAL)]
    return np.asarray(keep or range(len(tokens)), dtype=np.int64)


def rollout(attentions: np.ndarray) -> np.ndarray:
    """Attention rollout after each layer: (L, H, N, N) → (L, N, N), rows sum to 1."""
    attentions = np.asarray(attentions, dtype=np.float64)
    if attentions.ndim != 4 or attentions.shape[-1] != attentions.shape[-2]:
        raise ValueError(f"attentions must have shape (L, H, N, N), got {attentions.shape}")
    L, _, N, _ = attentions.shape
    out = np.empty((L, N, N))
    R = np.eye(N)
    for layer in range(L):
        A = attentions[layer].mean(0) + np.eye(N)  # (N, N): heads averaged, residual added
        A /= A.sum(-1, keepdims=True)  # rows renormalised
        R = A @ R  # (N, N)
        out[layer] = R
    return out.astype(np.float32)


@lru_cache(maxsize=TEXTS_CACHED)
def encode(text: str) -> tuple[Encoding, np.ndarray]:
    """The text through the model (cut at its 512 tokens) and its rollout (L, N, N), once
    per text: picking another layer or head reuses them. The arrays are read-only."""
    enc = model().encode(text, truncate=True)
    rolled = rollout(enc.attentions)
    for array in (enc.attentions, enc.hidden, enc.ids, rolled):
        array.flags.writeable = False
    return enc, rolled


@lru_cache(maxsize=TEXTS_CACHED)
def model_mosaic(text: str) -> tuple[Mosaic, bytes]:
    """Every head of every layer as one picture and its PNG (the slow part), once per text."""
    m = mosaic(encode(text)[0].attentions)
    m.rgb.flags.writeable = False
    return m, m.png()


def run(cfg: Config) -> Result:
    """The map the view shows (one head, heads combined, or rollout after a layer), the
    tokens it keeps, and in the "model" view the picture of every head."""
    enc, rolled = encode(cfg.text)
    keep = keep_positions(enc.tokens, cfg.hide_special)
    if cfg.view == "rollout":
        full = rolled[cfg.layer]  # (N, N)
    elif cfg.view == "head" and cfg.combine:
        full = combine_heads(enc.attentions[cfg.layer], cfg.combine)  # (N, N)
    else:
        full = enc.attentions[cfg.layer, cfg.head]  # (N, N)
    shown = full[np.ix_(keep, keep)]  # (N_keep, N_keep), a copy
    shown_tokens = [enc.tokens[i] for i in keep]
    m, png = model_mosaic(cfg.text) if cfg.view == "model" else (None, None)
    return Result(
        tokens=enc.tokens,
        truncated=enc.truncated,
        keep=keep,
        shown_tokens=shown_tokens,
        labels=token_labels(shown_tokens, keep, escape=False),
        shown=shown,
        zmax=float(shown.max()) if cfg.hide_special else 1.0,
        attentions=enc.attentions if len(enc.tokens) <= CSV_ALL_MAX_N else None,
        mosaic=m,
        png=png,
        formulas=[formulas.ROLLOUT if cfg.view == "rollout" else formulas.REAL_HEAD],
    )
