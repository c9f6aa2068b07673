"""The real model (the shipped all-MiniLM-L6-v2, or a folder the server lists: see
``models``), run by attnviz's own blocks, and one forward pass of a text through it, kept per
text and model: what every part of the real-model page reads.

The server's caps apply here, where its inputs arrive (``check_model``): a model of more
than MAX_LAYERS layers, a width over MAX_D, more than MAX_H heads or an FFN wider than
MAX_D_FF is refused with a message, and a text is cut at MAX_N tokens (or the model's own
context, if shorter). In a notebook, ``attnviz.load_pretrained`` has none of these caps.

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

from dataclasses import dataclass

import numpy as np
import torch

from ...errors import InputError
from ...limits import MAX_D, MAX_D_FF, MAX_H, MAX_LAYERS, MAX_N
from ...masks import causal_mask
from ...model_folder import identity, model_dir, read_arch
from ...pretrained import Encoding, PretrainedModel, encoded, is_loaded, load_pretrained
from ...text import check_text as text_rules
from .kept import kept
from .models import resolve

MODEL = "all-MiniLM-L6-v2"
TEXTS_CACHED = 32  # texts kept per process by each cache of the page (encodings, mosaics, sinks)
# and the bytes the encodings may hold: a 512-token text's maps take ~170 MB, a short one's
# next to nothing
ENCODED_BYTES = 512 * 2**20


def check_model(name: str) -> None:
    """The model ``name`` (an id of ``models.found``) is listed, readable (its folder, its
    architecture) and within the server's caps; InputError naming what is not. Reads
    config.json only."""
    _, a = read_arch(resolve(name))
    for what, value, hi in (("L", a.L, MAX_LAYERS), ("D", a.D, MAX_D), ("H", a.H, MAX_H)):
        if value > hi:
            raise InputError(
                f"{name} is too large for this server: {what} = {value}, above {hi}",
                "model_caps",
                model=name,
                what=what,
                value=value,
                hi=hi,
            )
    if a.d_ff > MAX_D_FF:
        raise InputError(
            f"{name} is too large for this server: D_ff = {a.d_ff}, above {MAX_D_FF}",
            "model_caps",
            model=name,
            what="D_ff",
            value=a.d_ff,
            hi=MAX_D_FF,
        )


@dataclass(frozen=True)
class About:
    """What the page says of a model before running it, from its config.json alone."""

    L: int
    H: int
    D: int
    family: str  # "BERT", "GPT-2"
    norm: str  # its LN placement, a key of attnviz.norms.NORMS
    final_norm: bool  # an LN after the last block
    causal: bool
    strings: tuple[tuple[str, str], ...]  # the family's string keys (Family.strings)
    role_labels: tuple[tuple[str, str], ...]  # role → the string key naming it


def about(name: str = MODEL) -> About:
    """The model ``name``'s size and family (InputError if it is not listed, not readable or
    over the server's caps)."""
    check_model(name)
    family, a = read_arch(resolve(name))
    return About(
        a.L,
        a.H,
        a.D,
        family.label,
        a.norm,
        a.final_norm,
        a.causal,
        tuple(family.strings.items()),
        tuple(family.role_labels.items()),
    )


def model(name: str = MODEL) -> PretrainedModel:
    """The model, loaded once per process and state of its files (``load_pretrained``)."""
    check_model(name)
    return load_pretrained(resolve(name))


def loaded(name: str = MODEL) -> bool:
    """Whether the model ``name`` is in memory already (``model`` then returns at once)."""
    return is_loaded(resolve(name))


def max_tokens(name: str = MODEL) -> int:
    """The most tokens the page reads: the model's context, at most the server's MAX_N
    (from config.json: building a config loads no weights)."""
    check_model(name)
    return min(read_arch(resolve(name))[1].n_ctx, MAX_N)


def size(name: str = MODEL) -> tuple[int, int]:
    """(L, H): the model's layers and heads per layer, from its own config."""
    check_model(name)
    _, a = read_arch(resolve(name))
    return a.L, a.H


def check_text(text: object, name: str = MODEL) -> None:
    """The rules a typed sentence meets: the shared text rules, and not blank."""
    text_rules(text)
    if not text.strip():
        raise InputError("text must contain at least 1 token", "no_tokens", hi=max_tokens(name))


def tokenize(text: str, name: str = MODEL) -> tuple[list[str], list[int], bool]:
    """The text's tokens and ids, cut at ``max_tokens``, and whether they were cut."""
    return model(name).tokenize(text, truncate=True, limit=max_tokens(name))


def rownorm(M: np.ndarray) -> np.ndarray:
    """Each row divided by its sum; a row of zeros stays zero."""
    total = M.sum(-1, keepdims=True)
    return np.divide(M, total, out=np.zeros_like(M), where=total > 0)


def rollout(maps: np.ndarray) -> np.ndarray:
    """Rollout after each layer, of the weights or of the contributions (non-negative maps):
    (L, H, N, N) → (L, N, N), rows sum to 1."""
    maps = np.asarray(maps)  # float32 stays float32: each layer's heads summed in float64
    if maps.ndim != 4 or maps.shape[-1] != maps.shape[-2]:
        raise ValueError(f"maps must have shape (L, H, N, N), got {maps.shape}")
    L, _, N, _ = maps.shape
    out = np.empty((L, N, N))
    R = np.eye(N)
    for layer in range(L):
        heads = np.zeros((N, N))  # Σ_h, in float64, a head at a time: no (H, N, N) copy
        for head in maps[layer]:
            heads += head
        A = rownorm(rownorm(heads) + np.eye(N))  # (N, N): heads, residual added
        R = A @ R  # (N, N)
        out[layer] = R
    return out.astype(np.float32)


def encode(text: str, name: str = MODEL) -> tuple[Encoding, dict[str, np.ndarray], np.ndarray]:
    """The text through the model ``name`` (cut at ``max_tokens``) as
    ``PretrainedModel.encode`` gives it, its rollouts (L, N, N) by the Encoding's array they
    roll ("attentions", "norms") and what each layer's attention read (L, N, D), from one
    forward pass, once per text and model (its folder and its files' identity): picking
    another layer, head or measure reuses them. Read-only."""
    return _encode(text, name, files(name))


def files(name: str = MODEL) -> tuple:
    """The identity of the model ``name``'s files (a cache's key: a file replaced in place
    is read again)."""
    return identity(model_dir(resolve(name)))


@kept(ENCODED_BYTES, TEXTS_CACHED)
@torch.inference_mode()
def _encode(text: str, name: str, _files: tuple) -> tuple:
    net = model(name)
    limit = max_tokens(name)
    tokens, ids, roles, cut = net.tokens_and_roles(text, limit)
    inputs = np.empty((net.L, len(ids), net.D), dtype=np.float32)  # (L, N, D)

    def read(layer: int, trace) -> None:
        inputs[layer] = trace.attn_in[0].float().cpu().numpy()

    # a layer at a time: each layer's intermediates are let go once its maps are read
    enc = encoded(net, tokens, ids, cut, roles, take=read)
    rolled = {name: rollout(getattr(enc, name)) for name in ("attentions", "norms")}
    for array in (enc.attentions, enc.norms, enc.hidden, enc.ids, *rolled.values(), inputs):
        array.flags.writeable = False
    return enc, rolled, inputs


@torch.inference_mode()
def attention(text: str, layer: int, name: str = MODEL):
    """(x, module, trace, mask) of one layer's attention on the text, recomputed from its
    input (post-LN: X_l; pre-LN: LN_1(X_l)), with the model's causal mask (None if it has
    none; True = may attend)."""
    net = model(name)
    mha = net.stack.blocks[layer].attn
    x = torch.from_numpy(encode(text, name)[2][layer].copy()).to(mha.W_Q.device)  # (N, D)
    mask = causal_mask(x.shape[0], device=x.device) if net.arch.causal else None
    return x, mha, mha(x, mask=mask)[1], mask
