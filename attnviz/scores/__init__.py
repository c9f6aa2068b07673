"""Score functions r(z, q): how much a query q is interested in a source z.

Every score maps sources ``z`` of shape (..., N, D) and queries ``q`` of shape (..., M, D)
to scores of shape (..., M, N); a softmax over the last axis turns them into attention
weights. With ``heads=H`` a score carries one set of parameters per head and expects
inputs (..., H, N, D).

Each score is one module here with its ``ScoreSpec`` (``SPEC``): the nn.Module, its
formulas and the rules the pages show. ``SCORES`` maps a name to its spec, in the order
the menus list them; ``register`` adds one (a new file and its strings are all a new score
needs).
"""

from __future__ import annotations

import torch
from torch import nn

from ..limits import MAX_N, check_choice, check_size
from . import bilinear, dot, mlp, query_only, scaled_dot
from .spec import GROWTHS, ScoreSpec, Terms, scale

SCORES: dict[str, ScoreSpec] = {}


def register(spec: ScoreSpec) -> ScoreSpec:
    """Add ``spec`` to ``SCORES`` under its name (replacing one of the same name)."""
    if spec.growth not in GROWTHS:
        raise ValueError(f"growth must be one of {GROWTHS}, got {spec.growth!r}")
    SCORES[spec.name] = spec
    return spec


for _module in (dot, scaled_dot, bilinear, mlp, query_only):
    register(_module.SPEC)


def spec_of(name: str) -> ScoreSpec:
    """The spec of the score called ``name``; ValueError naming the choices otherwise."""
    check_choice("score", name, SCORES)
    return SCORES[name]


def make_score(
    name: str,
    d: int,
    *,
    heads: int | None = None,
    seed: int = 0,
    generator: torch.Generator | None = None,
    dtype: torch.dtype = torch.float32,
    hidden: int = 16,
    n_max: int = MAX_N,
) -> nn.Module:
    """Build the score called ``name`` for width ``d``.

    ``hidden`` is the MLP score's hidden width, ``n_max`` the number of source positions
    of the query_only score; a score takes only the options its spec lists. Parameters are
    drawn from ``generator``, or from a fresh one seeded with ``seed``.
    """
    spec = spec_of(name)
    check_size("D", d)
    if heads is not None:
        check_size("H", heads)
    if generator is None:
        generator = torch.Generator().manual_seed(seed)
    return spec.build(d, heads, generator=generator, dtype=dtype, hidden=hidden, n_max=n_max)


__all__ = ["GROWTHS", "SCORES", "ScoreSpec", "Terms", "make_score", "register", "scale", "spec_of"]
