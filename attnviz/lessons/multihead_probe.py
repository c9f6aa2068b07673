"""One weight of the multi-head page's block followed through its formula,
``follow(Pick(cfg, h, i, j))``, and head h's queries and keys in one 2D picture,
``qk(Probe(cfg, h, query, …))``. Both rebuild the block from the config (seeded, so the same
numbers) instead of keeping modules or tensors in a cached result.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import formulas, worked
from ..errors import InputError
from ..limits import check_choice, check_int
from ..qkspace import CENTRES, QKSpace, qk_space
from ..scores import spec_of
from ..stepthrough import WeightSteps, step_through
from ..text import tokenize
from .multihead import Config, forward

MAX_TOP_K = 16  # keys joined to the chosen query in the query–key picture


def _check_pick(cfg: Config, h: int, positions: dict[str, int]) -> None:
    check_int("head", h, 0, cfg.H - 1)
    N = len(tokenize(cfg.text))
    for name, value in positions.items():
        check_int(name, value, 0, N - 1)


@dataclass(frozen=True)
class Pick:
    """One weight a_ij of the config's block: head h, query i, key j (0-based)."""

    cfg: Config
    h: int = 0
    i: int = 0
    j: int = 0

    def __post_init__(self) -> None:
        _check_pick(self.cfg, self.h, {"i": self.i, "j": self.j})


@dataclass(frozen=True)
class Steps:
    steps: WeightSteps  # every step from x_i to out_i, float64, 0-based indices
    formulas: list[str]  # the six lines of weight_steps, numbered from 1


def follow(pick: Pick) -> Steps:
    """a_ij followed from x_i to out_i, each step checked against the block's own trace."""
    _, block, mask, trace = forward(pick.cfg)
    steps = step_through(trace, block.attn, h=pick.h, i=pick.i, j=pick.j, mask=mask)
    return Steps(steps, worked.weight_steps(steps, bias=False))


@dataclass(frozen=True)
class Probe:
    """Head h's query–key space, with the top-k keys of one query (0-based)."""

    cfg: Config
    h: int = 0
    query: int = 0
    k: int = 5
    centre: str = "each"

    def __post_init__(self) -> None:
        _check_pick(self.cfg, self.h, {"query": self.query})
        check_int("k", self.k, 1, MAX_TOP_K)
        check_choice("centre", self.centre, CENTRES)
        if not spec_of(self.cfg.score).reads_keys:
            raise InputError(f"the {self.cfg.score} score never reads the keys", "no_keys")


@dataclass(frozen=True)
class QK:
    space: QKSpace  # the 2D points, axes, variance shares and the query's top keys
    tokens: list[str]  # the token of every row (queries and keys alike)
    formulas: list[str]
    score: str  # the head's score function: what the picture's points are


def qk(probe: Probe) -> QK:
    """Head h's queries and keys projected together to 2D (PCA after centring)."""
    tokens, block, _, trace = forward(probe.cfg)
    space = qk_space(
        trace, block.attn, h=probe.h, query=probe.query, k=probe.k, centre=probe.centre
    )
    lines = formulas.qk_space(probe.cfg.score, probe.centre)
    return QK(space, tokens, lines, probe.cfg.score)
