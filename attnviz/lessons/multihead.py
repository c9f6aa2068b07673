"""Multi-head self-attention on a typed sentence (S9–S12), inside one block (S13, S14).

``run(cfg)`` gives every head's map; ``multihead_probe`` follows one weight and draws a
head's query–key space, rebuilding the block from the config through ``forward``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from .. import formulas
from ..block import BlockTrace, TransformerBlock
from ..device import resolve_device
from ..errors import InputError
from ..limits import (
    MAX_D,
    MAX_H,
    MAX_SEED,
    check_choice,
    check_float,
    check_heads,
    check_int,
    check_width,
    max_d_head,
    nearest_heads,
)
from ..masks import causal_mask
from ..norms import NORMS, placement
from ..positional import KINDS, MODES, PositionalEncoding
from ..positional import width as positional_width
from ..scores import SCORES, spec_of
from ..text import embed, tokenize

MIN_QK_SCALE, MAX_QK_SCALE = 0.25, 8.0
NEAR_UNIFORM = 0.8  # share of log N above which a head's rows count as almost uniform


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
            check_int("d_head", self.d_head, 1, max_d_head(self.H))
        else:
            check_heads(self.width, self.H)

    @property
    def width(self) -> int:
        """The width attention sees: D, or D + D with concatenated positions (S16)."""
        return positional_width(self.D, self.pe, self.pe_mode)

    @classmethod
    def fit(
        cls, came_from: int | None = None, **fields: object
    ) -> tuple[Config, InputError | None]:
        """A config with H moved to a divisor of the width when D′ is automatic, and the
        message that says so (None when H was valid as given). ``came_from``: the H the
        control moved from; H then moves on past it (``nearest_heads``), ``heads_next``."""
        try:
            return cls(**fields), None
        except InputError as err:
            if err.key != "heads_divide":
                raise
            H = fields["H"]
            if came_from is None or came_from == H:
                return cls(**{**fields, "H": err.fields["nearest"]}), err
            step = nearest_heads(err.fields["width"], H, came_from)
            moved = InputError(str(err), "heads_next", width=err.fields["width"], H=H, next=step)
            return cls(**{**fields, "H": step}), moved


@dataclass(frozen=True)
class Result:
    tokens: list[str]
    scores: np.ndarray  # (H, N, N) pre-softmax, float32
    weights: np.ndarray  # (H, N, N) softmax rows, float32
    norms: np.ndarray  # (H, N, N) ‖a_ij f_h(x_j)‖, f_h(x_j) = x_j W_h^V W_h^O, float32
    pipeline: pd.DataFrame  # step, formula (LaTeX), shape
    formulas: list[str]  # LaTeX of what was computed
    width: int  # what attention reads: D, or 2D with concatenated positions
    d_head: int  # D′ as computed
    entropy: np.ndarray  # (H,) mean over rows of entropy / log(keys the row reads); 1 = uniform
    max_weight: np.ndarray  # (H,) largest weight of each head (uniform: 1/N)
    reading: str  # what the maps' entropy says: a key of READINGS
    score_factor: float  # s²√D′: these scores over scaled_dot's at s = 1, for the dot product

    @property
    def near_uniform(self) -> bool:
        """Every head keeps at least 80 % of the entropy of a uniform row."""
        return self.reading.startswith("near_uniform")


READINGS = (  # near uniform (and what s would do), or what made the rows sharper than that
    "near_uniform_s2",  # s would multiply the scores by s² (q and k both grow)
    "near_uniform_s",  # s would multiply them by s only (no key is read)
    "near_uniform_bounded",  # the score is bounded: s hardly sharpens it
    "sharper_s2",  # s > 1 with a score that grows like s²
    "sharper_s",  # s > 1 with a score that grows like s
    "sharper_unscaled",  # an inner product without √D′
    "sharper_unscaled_s",  # both: s²√D′
    "sharper_score",  # none of these: the score's own spread
)


def reading(cfg: Config, entropy: np.ndarray) -> str:
    """Which of READINGS explains heads whose least mean row entropy is ``entropy.min()``,
    from how the score grows with s (``ScoreSpec.growth``) and whether it divides by √D′."""
    spec = spec_of(cfg.score)
    if entropy.min() >= NEAR_UNIFORM:
        return f"near_uniform_{spec.growth}"
    if spec.inner_product and not spec.scaled:
        return "sharper_unscaled_s" if cfg.qk_scale > 1 else "sharper_unscaled"
    if cfg.qk_scale > 1 and spec.growth != "bounded":
        return f"sharper_{spec.growth}"
    return "sharper_score"


def row_entropy(weights: torch.Tensor, causal: bool) -> torch.Tensor:
    """(H,) each head's mean over rows of H_i / ln k_i, where H_i = −Σ_j a_ij ln a_ij and k_i
    is the number of keys row i may read (N; i under the causal mask): 1 for a uniform row.
    A row with one key has nothing to spread over and is left out (all 1 when N = 1)."""
    H, N, _ = weights.shape
    terms = -(weights * torch.log(weights.clamp_min(1e-30))).sum(-1)  # (H, N)
    keys = torch.arange(1, N + 1) if causal else torch.full((N,), N)  # (N,) k_i
    spread = keys > 1
    if not spread.any():
        return torch.ones(H)
    return (terms[:, spread] / torch.log(keys[spread].float())).mean(-1)


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
    steps = formulas.pipeline(
        cfg.score, pe_kind=cfg.pe, pe_mode=cfg.pe_mode, causal=cfg.causal, norm=cfg.norm
    )
    has_pe = KINDS[cfg.pe].present
    shapes = [(N, cfg.D)] + ([(N, cfg.width)] if has_pe else [])
    pre = placement(cfg.norm).ln_before_sublayer  # attention reads LN(X)
    shapes += [tuple(trace.attn_in.shape[1:])] if pre else []  # (N, width)
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
    shown = [formulas.positions(cfg.pe, cfg.pe_mode)] if has_pe else []
    entropy = row_entropy(weights, cfg.causal).numpy()  # (H,)
    return Result(
        tokens=tokens,
        scores=a.scores[0].float().cpu().numpy(),
        weights=weights.numpy(),
        norms=a.norms[0].float().cpu().numpy(),
        pipeline=pipeline,
        formulas=shown
        + formulas.multihead(
            cfg.score,
            causal=cfg.causal,
            qk_scale=cfg.qk_scale,
            norm=cfg.norm,
            width="2D" if cfg.width > cfg.D else "D",
        ),
        width=cfg.width,
        d_head=block.attn.d_head,
        entropy=entropy,
        max_weight=weights.amax((-1, -2)).numpy(),
        reading=reading(cfg, entropy),
        score_factor=cfg.qk_scale**2 * block.attn.d_head**0.5,
    )
