"""The real model (all-MiniLM-L6-v2, run by attnviz's own blocks) and one forward pass of a
text through it, kept per text: what every part of the real-model page reads.

Attention rollout (Abnar & Zuidema 2020) follows attention through the residual stream:

    Ã_l = rownorm( rownorm(Σ_h M_l,h) + I )    (N, N), each row sums to 1
    R_1 = Ã_1,   R_l = Ã_l R_{l-1}             how much token j feeds token i after l layers

With the weights, M = A, rownorm(Σ_h A_l,h) is their mean over heads: Abnar & Zuidema's
rollout. With the contributions, M_ij = ‖a_ij f_h(x_j)‖ (Kobayashi et al. 2020), each row
becomes the share of what the layer's heads send from each source: a head that sends more
counts more, and a source that takes weight but sends a short vector counts less. Adding I
accounts for the residual connection around attention; rows of R_l still sum to 1.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import torch

from ...errors import InputError
from ...pretrained import Encoding, PretrainedEncoder, encoding, load_pretrained
from ...text import check_text as text_rules

MODEL = "all-MiniLM-L6-v2"
TEXTS_CACHED = 32  # texts kept per process by each cache of the page (encodings, mosaics, sinks)


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


def rownorm(M: np.ndarray) -> np.ndarray:
    """Each row divided by its sum; a row of zeros stays zero."""
    total = M.sum(-1, keepdims=True)
    return np.divide(M, total, out=np.zeros_like(M), where=total > 0)


def rollout(maps: np.ndarray) -> np.ndarray:
    """Rollout after each layer, of the weights or of the contributions (non-negative maps):
    (L, H, N, N) → (L, N, N), rows sum to 1."""
    maps = np.asarray(maps, dtype=np.float64)
    if maps.ndim != 4 or maps.shape[-1] != maps.shape[-2]:
        raise ValueError(f"maps must have shape (L, H, N, N), got {maps.shape}")
    L, _, N, _ = maps.shape
    out = np.empty((L, N, N))
    R = np.eye(N)
    for layer in range(L):
        A = rownorm(rownorm(maps[layer].sum(0)) + np.eye(N))  # (N, N): heads, residual added
        R = A @ R  # (N, N)
        out[layer] = R
    return out.astype(np.float32)


@lru_cache(maxsize=TEXTS_CACHED)
@torch.inference_mode()
def encode(text: str) -> tuple[Encoding, dict[str, np.ndarray], np.ndarray]:
    """The text through the model (cut at its 512 tokens) as ``PretrainedEncoder.encode``
    gives it, its rollouts (L, N, N) by the Encoding's array they roll ("attentions",
    "norms") and what each layer's attention read (L, N, D), from one forward pass, once per
    text: picking another layer, head or measure reuses them. Read-only."""
    net = model()
    tokens, ids, cut = net.tokenize(text, truncate=True)
    hidden, traces = net(torch.tensor(ids))
    enc = encoding(tokens, ids, hidden, traces, cut)
    rolled = {name: rollout(getattr(enc, name)) for name in ("attentions", "norms")}
    inputs = torch.stack([t.attn_in[0] for t in traces]).float().cpu().numpy()  # post-LN: X_l
    for array in (enc.attentions, enc.norms, enc.hidden, enc.ids, *rolled.values(), inputs):
        array.flags.writeable = False
    return enc, rolled, inputs


@torch.inference_mode()
def attention(text: str, layer: int):
    """(x, module, trace) of one layer's attention on the text, recomputed from its input."""
    mha = model().stack.blocks[layer].attn
    x = torch.from_numpy(encode(text)[2][layer].copy()).to(mha.W_Q.device)  # (N, D)
    return x, mha, mha(x)[1]
