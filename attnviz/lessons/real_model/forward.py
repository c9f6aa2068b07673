"""The real model (all-MiniLM-L6-v2, run by attnviz's own blocks) and one forward pass of a
text through it, kept per text: what every part of the real-model page reads.

Attention rollout (Abnar & Zuidema 2020) follows attention through the residual stream:

    Ã_l = rownorm( mean_h A_l,h + I )          (N, N), each row sums to 1
    R_1 = Ã_1,   R_l = Ã_l R_{l-1}             how much token j feeds token i after l layers

Adding I accounts for the residual connection around attention; rows of R_l still sum to 1.
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
    enc = encoding(tokens, ids, hidden, traces, cut)
    rolled = rollout(enc.attentions)
    inputs = torch.stack([t.attn_in[0] for t in traces]).float().cpu().numpy()  # post-LN: X_l
    for array in (enc.attentions, enc.norms, enc.hidden, enc.ids, rolled, inputs):
        array.flags.writeable = False
    return enc, rolled, inputs


@torch.inference_mode()
def attention(text: str, layer: int):
    """(x, module, trace) of one layer's attention on the text, recomputed from its input."""
    mha = model().stack.blocks[layer].attn
    x = torch.from_numpy(encode(text)[2][layer].copy()).to(mha.W_Q.device)  # (N, D)
    return x, mha, mha(x)[1]
