"""Where attention goes when it has nowhere to go: the weight a real model's heads park on
its sink candidates ([CLS] and [SEP] for BERT, the first token for GPT-2) and punctuation.

The categories "cls" and "sep" are two roles, the opening candidate and the closing one;
a model's family says which tokens take them (``Encoding.roles``). Without roles, the
tokens spelled [CLS] and [SEP] take them (BERT's).

For layer l, head h and a category c of tokens (a set of key positions), of maps m_ij ≥ 0
(the weights a_ij, whose rows sum to 1, or the contributions ‖a_ij f_h(x_j)‖, whose do not):

    share_c^(l,h)(i) = Σ_{j ∈ c} m_ij^(l,h) / Σ_j m_ij^(l,h)  the share of row i on c
    share_c^(l,h)    = (1/N) Σ_i share_c^(l,h)(i)              its mean over the N rows

The categories [CLS], [SEP], punctuation and the rest are disjoint and cover every key,
so the four shares of a row add up to 1 (S9); a row of zeros has no share. Punctuation
follows BERT's own tokenizer rule (``_is_punctuation``): ASCII symbols such as ``$`` and
``+``, and every Unicode character of a "P" category.

Hiding tokens and renormalising keeps the other rows and columns and rescales each row:

    ã_ij = a_ij / Σ_{l ∈ kept} a_il,   i, j ∈ kept
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

CATEGORIES = ("cls", "sep", "punct", "rest")
TOKENS = {"cls": "[CLS]", "sep": "[SEP]"}  # the special tokens of BERT-family models


def is_punctuation(token: str) -> bool:
    """BERT's rule: every character is ASCII 33–47, 58–64, 91–96, 123–126 or Unicode P*."""

    def punct(ch: str) -> bool:
        cp = ord(ch)
        if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
            return True
        return unicodedata.category(ch).startswith("P")

    token = token.removeprefix("##")
    return bool(token) and token not in TOKENS.values() and all(punct(ch) for ch in token)


Roles = Sequence[str | None] | None  # each token's role, "cls" / "sep" / None; None: by name


def token_categories(tokens: Sequence[str], roles: Roles = None) -> np.ndarray:
    """(N,) index into ``CATEGORIES`` of each token: its role ("cls", "sep": [CLS] and [SEP]
    without ``roles``), else punctuation or the rest."""
    if roles:
        if len(roles) != len(tokens):
            raise ValueError(f"roles must give one role per token, {len(tokens)}")
        return np.asarray(
            [
                CATEGORIES.index(r) if r else (2 if is_punctuation(t) else 3)
                for t, r in zip(tokens, roles, strict=True)
            ],
            dtype=np.int64,
        )
    index = {TOKENS["cls"]: 0, TOKENS["sep"]: 1}
    return np.asarray([index.get(t, 2 if is_punctuation(t) else 3) for t in tokens], dtype=np.int64)


@dataclass(frozen=True)
class SinkShares:
    """The share of each row's weight on each category, per layer and head."""

    category: np.ndarray  # (N,) index into CATEGORIES of every token
    row_shares: np.ndarray  # (4, L, H, N) share_c(i) of every query row i
    shares: np.ndarray  # (4, L, H) their mean over the rows: the layer × head grids

    def grid(self, name: str) -> np.ndarray:
        """(L, H) mean share of the category ``name`` ("cls", "sep", "punct" or "rest")."""
        if name not in CATEGORIES:
            raise ValueError(f"name must be one of {', '.join(CATEGORIES)}; got {name!r}")
        return self.shares[CATEGORIES.index(name)]


def _check_attentions(attentions: np.ndarray, n: int) -> np.ndarray:
    attentions = np.asarray(attentions)  # float32 maps stay float32: (L, H, 512, 512) is 75 MB
    if not np.issubdtype(attentions.dtype, np.floating):
        attentions = attentions.astype(np.float64)
    if attentions.ndim < 2 or attentions.shape[-2:] != (n, n):
        raise ValueError(f"attentions must have shape (…, N, N) with N = {n} tokens")
    return attentions


def sink_shares(attentions: np.ndarray, tokens: Sequence[str], roles: Roles = None) -> SinkShares:
    """Per head, the share of each row on [CLS], [SEP], punctuation and the rest: of the
    weight, or of what is sent (each row divided by its sum).

    Shape:
        attentions (L, H, N, N) (``Encoding.attentions`` or ``.norms``), tokens N ->
        ``SinkShares``.
    """
    category = token_categories(tokens, roles)
    A = _check_attentions(attentions, len(category))
    if A.ndim != 4:
        raise ValueError(f"attentions must have shape (L, H, N, N), got {A.shape}")
    onehot = np.eye(len(CATEGORIES), dtype=A.dtype)[category]  # (N, 4): key j is in c
    on = np.empty((*A.shape[:-1], len(CATEGORIES)), dtype=A.dtype)  # (L, H, N, 4)
    for layer, maps in enumerate(A):  # a layer at a time: no second (L, H, N, N) array
        total = maps.sum(-1, keepdims=True)
        maps = np.divide(maps, total, out=np.zeros_like(maps), where=total > 0)  # row shares
        on[layer] = maps @ onehot  # (H, N, N) @ (N, 4)
    row_shares = np.moveaxis(on, -1, 0)  # (4, L, H, N)
    shares = row_shares.mean(-1, dtype=np.float64)  # (4, L, H)
    return SinkShares(category=category, row_shares=row_shares, shares=shares)


def kept_positions(
    tokens: Sequence[str], hide: Sequence[str] = ("cls", "sep"), roles: Roles = None
) -> np.ndarray:
    """Positions of the tokens not in the categories ``hide`` (all, if that would be none)."""
    for name in hide:
        if name not in CATEGORIES:
            raise ValueError(f"hide must hold names from {', '.join(CATEGORIES)}; got {name!r}")
    category = token_categories(tokens, roles)
    hidden = np.isin(category, [CATEGORIES.index(name) for name in hide])
    keep = np.flatnonzero(~hidden)
    return keep if keep.size else np.arange(len(category))


def hide_and_renormalise(
    attentions: np.ndarray,
    tokens: Sequence[str],
    hide: Sequence[str] = ("cls", "sep"),
    roles: Roles = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(kept positions, maps without the hidden tokens' rows and columns, rows rescaled to 1).

    A row whose whole weight was on hidden tokens stays all zero.

    Shape:
        attentions (…, N, N) -> keep (N_keep,), maps (…, N_keep, N_keep).
    """
    keep = kept_positions(tokens, hide, roles)
    A = _check_attentions(attentions, len(tokens))[..., keep[:, None], keep]  # (…, N_k, N_k)
    total = A.sum(-1, keepdims=True)
    return keep, np.divide(A, total, out=np.zeros_like(A), where=total > 0)
