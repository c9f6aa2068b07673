"""Multi-head self-attention on a typed sentence (S9–S12), inside one block (S13, S14).

``run(cfg)`` gives every head's map; ``follow(Pick(cfg, h, i, j))`` one weight a_ij
followed through its formula with the numbers, and ``qk(Probe(cfg, h, query, …))`` head
h's queries and keys in one 2D picture. Both rebuild the block from the config (seeded,
so the same numbers) instead of keeping modules or tensors in a cached result.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from .. import formulas, worked
from ..block import NORMS, BlockTrace, TransformerBlock
from ..device import resolve_device
from ..errors import InputError
from ..limits import (
    MAX_D,
    MAX_D_HEAD,
    MAX_H,
    MAX_SEED,
    check_choice,
    check_float,
    check_heads,
    check_int,
    check_width,
)
from ..masks import causal_mask
from ..positional import KINDS, MODES, PositionalEncoding
from ..qkspace import CENTRES, QKSpace, qk_space
from ..scoring import SCORES
from ..stepthrough import WeightSteps, step_through
from ..text import embed, token_labels, tokenize

MIN_QK_SCALE, MAX_QK_SCALE = 0.25, 8.0
NEAR_UNIFORM = 0.8  # share of log N above which a head's rows count as almost uniform
MAX_TOP_K = 16  # keys joined to the chosen query in the query–key picture


@dataclass(frozen=True)
class Config:
    text: str
    D: int = 64  # width of the word vectors
    H: int = 8  # heads
    d_head: int | None = None  # the chapter's D′; None = width / H
    score: str = "scaled_dot"
    causal: bool = False  # each token attends only to itself and earlier tokens
    pe: str = "sinusoidal"  # positional encoding kind
    pe_mode: str = "add"  # add: width D; concat: width 2D
    norm: str = "post"
    seed: int = 0
    qk_scale: float = 1.0  # s in W_h^Q, W_h^K ← s·W_h^Q, s·W_h^K: scores grow like s²

    def __post_init__(self) -> None:
        check_int("D", self.D, 1, MAX_D)
        check_int("H", self.H, 1, MAX_H)
        check_choice("score", self.score, SCORES)
        check_choice("positional encoding", self.pe, KINDS)
        check_choice("positional encoding mode", self.pe_mode, MODES)
        check_choice("norm", self.norm, NORMS)
        check_int("seed", self.seed, 0, MAX_SEED)
        check_float("qk_scale", self.qk_scale, MIN_QK_SCALE, MAX_QK_SCALE)
        check_width(self.width)
        if self.d_head is not None:
            check_int("d_head", self.d_head, 1, MAX_D_HEAD)
        else:
            check_heads(self.width, self.H)

    @property
    def width(self) -> int:
        """The width attention sees: D, or D + D with concatenated positions (S16)."""
        return 2 * self.D if self.pe != "none" and self.pe_mode == "concat" else self.D

    @classmethod
    def fit(cls, **fields: object) -> tuple[Config, InputError | None]:
        """A config with H moved to the nearest divisor of the width when D′ is automatic,
        and the message that says so (None when H was valid as given)."""
        try:
            return cls(**fields), None
        except InputError as err:
            if err.key != "heads_divide":
                raise
            return cls(**{**fields, "H": err.fields["nearest"]}), err


@dataclass(frozen=True)
class Result:
    tokens: list[str]
    scores: np.ndarray  # (H, N, N) pre-softmax, float32
    weights: np.ndarray  # (H, N, N) softmax rows, float32
    pipeline: pd.DataFrame  # step, formula (LaTeX), shape
    formulas: list[str]  # LaTeX of what was computed
    width: int  # what attention reads: D, or 2D with concatenated positions
    d_head: int  # D′ as computed
    entropy: np.ndarray  # (H,) mean row entropy of each head's weights / log N (1 = uniform)
    max_weight: np.ndarray  # (H,) largest weight of each head (uniform: 1/N)

    @property
    def near_uniform(self) -> bool:
        """Every head keeps at least 80 % of the entropy of a uniform row."""
        return bool(self.entropy.min() >= NEAR_UNIFORM)


@torch.inference_mode()
def forward(cfg: Config) -> tuple[list[str], TransformerBlock, torch.Tensor | None, BlockTrace]:
    """(tokens, block, mask, trace): the text embedded, positions added, one block run."""
    tokens = tokenize(cfg.text)
    X = embed(tokens, cfg.D)  # (N, D)
    X_in = PositionalEncoding(cfg.D, cfg.pe, cfg.pe_mode, seed=cfg.seed)(X)  # (N, width)
    device = resolve_device()
    block = TransformerBlock(
        cfg.width,
        cfg.H,
        d_head=cfg.d_head,
        norm=cfg.norm,
        score=cfg.score,
        bias=False,  # the chapter's projections have no bias; the formulas shown have none
        seed=cfg.seed,
        device=device,
    )
    block.attn.W_Q.mul_(cfg.qk_scale)
    block.attn.W_K.mul_(cfg.qk_scale)
    mask = causal_mask(len(tokens)).to(device) if cfg.causal else None
    _, trace = block(X_in.to(device), mask=mask)
    return tokens, block, mask, trace


@torch.inference_mode()
def run(cfg: Config) -> Result:
    """Embed the text, add positions, run one block; return per-head maps and every shape."""
    tokens, block, _, trace = forward(cfg)
    N = len(tokens)
    a = trace.attn
    weights = a.weights[0].float().cpu()  # (H, N, N)
    steps = formulas.pipeline(cfg.score, pe_kind=cfg.pe, pe_mode=cfg.pe_mode, causal=cfg.causal)
    shapes = [(N, cfg.D)] + ([(N, cfg.width)] if cfg.pe != "none" else [])
    shapes += [
        tuple(block.attn.W_Q.shape),  # (H, width, D′): the parameters
        tuple(block.attn.W_O.reshape(-1, cfg.width).shape),  # (H·D′, width)
        tuple(a.q.shape[1:]),  # (H, N, D′)
        tuple(a.scores.shape[1:]),  # (H, N, N)
        tuple(a.weights.shape[1:]),
        tuple(a.head_out.shape[1:]),  # (H, N, D′)
        tuple(a.concat.shape[1:]),  # (N, H·D′)
        tuple(trace.attn_out.shape[1:]),  # (N, width)
    ]
    rows = zip(steps, shapes, strict=True)
    pipeline = pd.DataFrame(
        [(step, formula, " × ".join(map(str, shape))) for (step, formula), shape in rows],
        columns=["step", "formula", "shape"],
    )
    shown = [formulas.positions(cfg.pe, cfg.pe_mode)] if cfg.pe != "none" else []
    entropy = -(weights * torch.log(weights.clamp_min(1e-30))).sum(-1).mean(-1)  # (H,)
    return Result(
        tokens=tokens,
        scores=a.scores[0].float().cpu().numpy(),
        weights=weights.numpy(),
        pipeline=pipeline,
        formulas=shown + formulas.multihead(cfg.score, causal=cfg.causal, qk_scale=cfg.qk_scale),
        width=cfg.width,
        d_head=block.attn.d_head,
        entropy=(entropy / np.log(N) if N > 1 else torch.ones_like(entropy)).numpy(),
        max_weight=weights.amax((-1, -2)).numpy(),
    )


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
    formulas: list[str]  # the five lines of weight_steps, numbered from 1


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
        if self.cfg.score == "query_only":
            raise InputError("the query_only score never reads the keys", "no_keys")


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


def step_tables(steps: WeightSteps, tokens: list[str]) -> dict[str, pd.DataFrame]:
    """The step-through's numbers as tables (CSV), headed by the chapter's symbols (1-based).

    ``terms``: the summands of s_ij; ``row``: s_i·, the mask and a_i·; ``values``: v_j,
    a_ij v_j and head_{h,i}, one row per dimension d of D'.
    """
    i, j = steps.i + 1, steps.j + 1
    T = len(steps.terms)
    if steps.score in ("dot", "scaled_dot"):
        factors = {f"q_{i},d": steps.q_i, f"k_{j},d": steps.k_j}
    elif steps.score == "bilinear":
        factors = {f"(W q_{i})_d": steps.Wq_i, f"k_{j},d": steps.k_j}
    elif steps.score == "mlp":
        factors = {"w_2,u": steps.mlp.w_2, "u_u": steps.mlp.u}
    else:
        factors = {f"W_{j},d": steps.W_j, f"q_{i},d": steps.q_i}
    index = "u" if steps.score == "mlp" else "d"
    terms = pd.DataFrame(
        {**factors, "term": steps.terms}, index=pd.Index(range(1, T + 1), name=index)
    )
    row = pd.DataFrame(
        {f"s_{i},l": steps.s_row, f"m_{i},l": steps.m_row, f"a_{i},l": steps.a_row},
        index=pd.Index(token_labels(tokens, escape=False), name="l"),
    )
    values = pd.DataFrame(
        {f"v_{j},d": steps.v_j, f"a_{i},{j} v_{j},d": steps.a_ij_v_j, f"head_{i},d": steps.head_i},
        index=pd.Index(range(1, len(steps.v_j) + 1), name="d"),
    )
    return {"terms": terms, "row": row, "values": values}


def qk_table(space: QKSpace, tokens: list[str]) -> pd.DataFrame:
    """Every point of the query–key picture: kind, sentence, position (1-based), token, x, y."""
    n = len(tokens)
    frames = []
    for kind, points in (("q", space.queries), ("k", space.keys)):
        frames.append(
            pd.DataFrame(
                {
                    "kind": kind,
                    "sentence": space.sentence + 1,
                    "position": space.position + 1,
                    "token": tokens,
                    "x": points[:, 0],
                    "y": points[:, 1],
                },
                index=range(n),
            )
        )
    return pd.concat(frames, ignore_index=True)
