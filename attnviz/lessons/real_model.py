"""Reading a real model's attention: one head, heads combined, special tokens hidden, rollout,
and where the heads park weight ([CLS], [SEP], punctuation). One weight followed through its
formula and a head's query–key space are ``real_probe``'s.

The model is all-MiniLM-L6-v2 run by attnviz's own blocks (``attnviz.pretrained``); its
number of layers L and heads H come from the model's own config. Attention rollout
(Abnar & Zuidema 2020) follows attention through the residual stream:

    Ã_l = rownorm( mean_h A_l,h + I )          (N, N), each row sums to 1
    R_1 = Ã_1,   R_l = Ã_l R_{l-1}             how much token j feeds token i after l layers

Adding I accounts for the residual connection around attention; rows of R_l still sum to 1.
Hiding [CLS] and [SEP] drops their rows and columns and rescales each row to 1
(``attnviz.sinks.hide_and_renormalise``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd
import torch

from .. import formulas, sinks
from ..charts.real_model import Mosaic, mosaic
from ..errors import InputError
from ..limits import check_choice, check_int
from ..pretrained import Encoding, PretrainedEncoder, load_pretrained
from ..text import check_text as text_rules
from ..text import has_japanese, token_labels

MODEL = "all-MiniLM-L6-v2"
VIEWS = ("model", "head", "rollout")  # every head of every layer, one layer, rollout
COMBINE = ("mean", "max")
HIDDEN = ("cls", "sep")  # the categories of sinks.CATEGORIES that "hide special" leaves out
CSV_ALL_MAX_N = 64  # the every-layer-and-head table is offered up to this many tokens
TEXTS_CACHED = 32  # encodings and mosaics kept per process, one per text


def model() -> PretrainedEncoder:
    """The model, loaded once per process (``load_pretrained`` keeps it)."""
    return load_pretrained(MODEL)


def size(name: str = MODEL) -> tuple[int, int]:
    """(L, H): the model's layers and heads per layer, from its own config."""
    net = load_pretrained(name)
    return net.L, net.H


def check_text(text: object) -> None:
    """The rules a typed sentence meets: the shared text rules, and not blank."""
    text_rules(text)
    if not text.strip():
        raise InputError("text must contain at least 1 token", "no_tokens", hi=model().max_tokens)


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
@torch.inference_mode()
def encode(text: str) -> tuple[Encoding, np.ndarray, np.ndarray]:
    """The text through the model (cut at its 512 tokens) as ``PretrainedEncoder.encode``
    gives it, its rollout (L, N, N) and what each layer's attention read (L, N, D), from one
    forward pass, once per text: picking another layer or head reuses them. Read-only."""
    net = model()
    tokens, ids, cut = net.tokenize(text, truncate=True)
    hidden, traces = net(torch.tensor(ids))
    enc = Encoding(
        tokens=tokens,
        ids=np.asarray(ids, dtype=np.int64),
        hidden=hidden.float().cpu().numpy(),
        attentions=torch.stack([t.attn.weights[0] for t in traces]).float().cpu().numpy(),
        truncated=cut,
    )
    rolled = rollout(enc.attentions)
    inputs = torch.stack([t.attn_in[0] for t in traces]).float().cpu().numpy()  # post-LN: X_l
    for array in (enc.attentions, enc.hidden, enc.ids, rolled, inputs):
        array.flags.writeable = False
    return enc, rolled, inputs


@lru_cache(maxsize=TEXTS_CACHED)
def model_mosaic(text: str) -> tuple[Mosaic, bytes]:
    """Every head of every layer as one picture and its PNG (the slow part), once per text."""
    m = mosaic(encode(text)[0].attentions)
    m.rgb.flags.writeable = False
    return m, m.png()


@torch.inference_mode()
def attention(text: str, layer: int):
    """(x, module, trace) of one layer's attention on the text, recomputed from its input."""
    mha = model().stack.blocks[layer].attn
    x = torch.from_numpy(encode(text)[2][layer].copy()).to(mha.W_Q.device)  # (N, D)
    return x, mha, mha(x)[1]


def run(cfg: Config) -> Result:
    """The map the view shows (one head, heads combined, or rollout after a layer), the
    tokens it keeps, and in the "model" view the picture of every head."""
    enc, rolled, _ = encode(cfg.text)

    def hidden(maps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(kept positions, maps): all, or without [CLS]/[SEP] and each row rescaled to 1."""
        if not cfg.hide_special:
            return np.arange(len(enc.tokens)), maps
        return sinks.hide_and_renormalise(maps, enc.tokens, HIDDEN)

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
