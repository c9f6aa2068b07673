"""Text → tokens → vectors, for pages that start from a sentence the user types.

Embeddings are deterministic per word: the word's bytes seed the generator, so a
repeated word gets the same vector, in every process and on every machine.
"""

from __future__ import annotations

import hashlib
import html
import re
from collections.abc import Sequence

import torch

from .errors import InputError
from .limits import MAX_D, MAX_N, MAX_TEXT_CHARS, check_int

_TOKEN = re.compile(r"\w+|[^\w\s]")


def tokenize(text: str) -> list[str]:
    """Split into words and punctuation marks (lower-cased); Japanese runs stay whole words."""
    if not isinstance(text, str):
        raise ValueError(f"text must be a string, got {type(text).__name__}")
    if len(text) > MAX_TEXT_CHARS:
        raise InputError(
            f"text must be at most {MAX_TEXT_CHARS} characters, got {len(text)}",
            "text_long",
            hi=MAX_TEXT_CHARS,
            value=len(text),
        )
    tokens = _TOKEN.findall(text.lower())
    if not tokens:
        raise InputError("text must contain at least 1 token", "no_tokens", hi=MAX_N)
    if len(tokens) > MAX_N:
        raise InputError(
            f"text must have at most {MAX_N} tokens (N in [1, {MAX_N}]), got {len(tokens)}",
            "text_tokens",
            hi=MAX_N,
            value=len(tokens),
        )
    return tokens


def word_vector(word: str, D: int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """A unit-variance N(0, 1) vector in ℝ^D determined by ``word`` alone."""
    D = check_int("D", D, 1, MAX_D)
    seed = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest(), "little")
    g = torch.Generator().manual_seed(seed % 2**63)
    return torch.randn(D, generator=g, dtype=dtype)


def embed(tokens: list[str], D: int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """Stack the word vectors of ``tokens`` into X ∈ ℝ^{N×D}."""
    if not tokens:
        raise ValueError(f"tokens must hold at least 1 token (N in [1, {MAX_N}])")
    return torch.stack([word_vector(w, D, dtype) for w in tokens])


def random_tokens(N: int, D: int, seed: int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """N random N(0, 1) vectors in ℝ^D from ``seed``."""
    N = check_int("N", N, 1, MAX_N)
    D = check_int("D", D, 1, MAX_D)
    g = torch.Generator().manual_seed(seed)
    return torch.randn(N, D, generator=g, dtype=dtype)


def token_labels(
    tokens: Sequence[str], positions: Sequence[int] | None = None, *, escape: bool = True
) -> list[str]:
    """Labels ``"i:token"`` numbered by position, for axes, hover text and CSV headers.

    ``escape`` HTML-escapes the token (Plotly renders some tags in labels); CSV files
    want the token as typed.
    """
    positions = range(len(tokens)) if positions is None else positions
    quote = html.escape if escape else str
    return [f"{i}:{quote(tok)}" for i, tok in zip(positions, tokens, strict=True)]
