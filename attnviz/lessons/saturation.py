"""Why scores are divided by √D (S2, S3): a seeded Monte Carlo of qᵀk against qᵀk / √D.

For q, k ∈ ℝ^D with independent unit-variance components, E[qᵀk] = 0 and
Var(qᵀk) = Σ_d Var(q_d k_d) = D. Unscaled logits therefore spread like √D, the
softmax over N keys puts almost all weight on one key (it saturates) and its
Jacobian J = diag(a) − a aᵀ, the factor every gradient passes through, goes to 0.
Dividing by √D keeps Var = 1 for every D. With components of variances σ_q² and σ_k²
(S3's "comparable variance" made a control), Var(qᵀk) = Σ_d Var(q_d k_d) = D σ_q² σ_k²: the
√D division then leaves σ_q² σ_k², and only comparable, unit-sized components keep it at 1.

One draw serves every D: the components come in blocks [D/2, D) and the partial dot
products are summed, so the logits at D are a prefix sum of those at D/2 (common random
numbers: the curves are smooth in D). A block's partial products are drawn exactly without
drawing k: given q, each q_bᵀk_jb with k_jb ~ N(0, I_w) independent of q is N(0, ‖q_b‖²),
independently over the keys j, and ‖q_b‖² ~ χ²_w. So a block costs one χ² draw a row and one
normal a key, not w of each: the cost no longer grows with D, where drawing the
components grew with it. The unit draws are scaled by σ_q σ_k afterwards:
q = σ_q q₀, k = σ_k k₀ gives qᵀk = σ_q σ_k q₀ᵀk₀.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from .. import formulas
from ..errors import InputError
from ..limits import MAX_SEED, check_float, check_int

DS = tuple(2**k for k in range(13))  # D = 1, 2, 4, …, 4096 (log scale)
MAX_KEYS = 128  # N keys per softmax row
MAX_ROWS = 2000  # query rows (samples)
MAX_LOGITS = 2**16  # rows · N per D: the statistics hold ~6 doubles a logit at each D
SIGMAS = (0.25, 0.5, 1.0, 2.0, 4.0)  # the standard deviations σ_q, σ_k offered
SATURATED = 0.99  # a row is saturated when its largest weight exceeds this


def rows_allowed(N: int, rows: int) -> int:
    """The number of query rows actually drawn: ``rows`` within the MAX_LOGITS budget."""
    return max(1, min(rows, MAX_LOGITS // N))


@dataclass(frozen=True)
class Config:
    N: int = 16  # keys per softmax row
    rows: int = 500  # query rows asked for; rows_allowed(N, rows) are drawn
    seed: int = 0
    sigma_q: float = 1.0  # standard deviation of q's components
    sigma_k: float = 1.0  # of k's

    def __post_init__(self) -> None:
        check_int("N", self.N, 1, MAX_KEYS)
        check_int("samples", self.rows, 1, MAX_ROWS)
        check_int("seed", self.seed, 0, MAX_SEED)
        check_float("sigma_q", self.sigma_q, SIGMAS[0], SIGMAS[-1])
        check_float("sigma_k", self.sigma_k, SIGMAS[0], SIGMAS[-1])


@dataclass(frozen=True)
class AtWidth:
    """What the page shows at one width D, read from a result."""

    D: int
    logits: np.ndarray  # (R, N) unscaled qᵀk
    example: np.ndarray  # (2, N) softmax of the first row: unscaled, then scaled by √D
    stats: pd.DataFrame  # the curves' two rows at D, indexed by scaled (False, True)


@dataclass(frozen=True)
class Result:
    D: np.ndarray  # (len(DS),) the widths, 1 … 4096
    logits: np.ndarray  # (len(DS), R, N) unscaled qᵀk, float32
    curves: pd.DataFrame  # one row per (D, scaled): variance, max_weight, entropy, …
    slope: dict[bool, float]  # fitted d log Var / d log D, per scaled
    rows: int  # R, the query rows drawn
    product: float  # σ_q² σ_k², the law's Var(qᵀk) / D
    formulas: list[str]  # LaTeX of what was computed

    def at(self, D: int) -> AtWidth:
        """The logits at width D, one row's weights without and with √D, the statistics."""
        if D not in DS:
            raise InputError(
                f"D must be one of {', '.join(map(str, DS))}; got {D!r}",
                "choice",
                name="D",
                choices=", ".join(map(str, DS)),
                value=repr(D),
            )
        raw = self.logits[DS.index(D)]  # (R, N)
        row = torch.tensor(raw[0], dtype=torch.float64)  # (N,), a copy: raw may be read-only
        example = torch.softmax(torch.stack([row, row / np.sqrt(D)]), -1)  # (2, N)
        stats = self.curves[self.curves["D"] == D].set_index("scaled")
        return AtWidth(D=D, logits=raw, example=example.float().numpy(), stats=stats)


def softmax_stats(logits: torch.Tensor) -> dict[str, torch.Tensor]:
    """Row statistics of a = softmax(logits) over the N keys, averaged over the R rows.

    max_weight = max_i a_i; entropy Ent(a) = −Σ a_i log a_i (nats, at most log N);
    jacobian = ‖diag(a) − a aᵀ‖_F, with ‖J‖_F² = Σa_i² − 2Σa_i³ + (Σa_i²)²;
    saturated = share of rows with max_i a_i > 0.99; variance = Var of the logits.

    Shape:
        logits (..., R, N) -> dict of (...) tensors
    """
    logits = logits.double()
    a = torch.softmax(logits, dim=-1)  # (..., R, N)
    top = a.max(dim=-1).values  # (..., R)
    s2, s3 = (a**2).sum(-1), (a**3).sum(-1)  # (..., R)
    jac = torch.sqrt(torch.clamp(s2 - 2 * s3 + s2**2, min=0.0))  # (..., R)
    entropy = -torch.special.xlogy(a, a).sum(-1)  # (..., R)
    return {
        "variance": logits.flatten(-2).var(-1),
        "max_weight": top.mean(-1),
        "entropy": entropy.mean(-1),
        "jacobian": jac.mean(-1),
        "saturated": (top > SATURATED).double().mean(-1),
    }


def draw_logits(N: int, rows: int, seed: int) -> np.ndarray:
    """qᵀk for ``rows`` queries q ~ N(0, I_D) each against N keys k_j ~ N(0, I_D), every D in DS.

    Shape:
        returns (len(DS), R, N) float32 with R = rows_allowed(N, rows)
    """
    N = check_int("N", N, 1, MAX_KEYS)
    rows = check_int("samples", rows, 1, MAX_ROWS)
    seed = check_int("seed", seed, 0, MAX_SEED)
    R = rows_allowed(N, rows)
    rng = np.random.default_rng(seed)  # one seeded generator: the same numbers everywhere
    total = np.zeros((R, N))  # running Σ_{d<D} q_d k_jd
    out = np.empty((len(DS), R, N), dtype=np.float32)
    lo = 0
    for i, D in enumerate(DS):
        norm2 = rng.chisquare(D - lo, size=R)  # ‖q_b‖² over components [lo, D), (R,)
        total += np.sqrt(norm2)[:, None] * rng.standard_normal((R, N))  # q_bᵀk_jb, (R, N)
        out[i] = total
        lo = D
    return out


def run(cfg: Config) -> Result:
    """Draw the logits, then the softmax statistics of qᵀk and qᵀk/√D at every D in DS."""
    logits = draw_logits(cfg.N, cfg.rows, cfg.seed) * np.float32(cfg.sigma_q * cfg.sigma_k)
    raw = torch.from_numpy(logits)  # (len(DS), R, N)
    root = torch.tensor(DS, dtype=torch.float64).sqrt()[:, None, None]  # (len(DS), 1, 1)
    stats = softmax_stats(torch.stack([raw.double(), raw / root]))  # each (2, len(DS))
    curves = pd.DataFrame(
        {
            "D": np.tile(DS, 2),
            "scaled": np.repeat([False, True], len(DS)),
            **{name: v.reshape(-1).numpy() for name, v in stats.items()},
        }
    )
    slope = {}
    for scaled, part in curves.groupby("scaled"):
        slope[bool(scaled)] = float(np.polyfit(np.log(part["D"]), np.log(part["variance"]), 1)[0])
    return Result(
        D=np.array(DS),
        logits=logits,
        curves=curves,
        slope=slope,
        rows=logits.shape[1],
        product=(cfg.sigma_q * cfg.sigma_k) ** 2,
        formulas=formulas.saturation(cfg.sigma_q, cfg.sigma_k),
    )
