"""Multi-head self-attention on a typed sentence (S9–S12), inside one block (S13, S14)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from .. import formulas
from ..block import NORMS, TransformerBlock
from ..errors import InputError
from ..limits import MAX_D, MAX_D_HEAD, MAX_H, MAX_SEED, check_choice, check_int
from ..masks import causal_mask
from ..positional import KINDS, MODES, PositionalEncoding
from ..scoring import SCORES
from ..text import embed, tokenize


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

    def __post_init__(self) -> None:
        check_int("D", self.D, 1, MAX_D)
        check_int("H", self.H, 1, MAX_H)
        check_choice("score", self.score, SCORES)
        check_choice("positional encoding", self.pe, KINDS)
        check_choice("positional encoding mode", self.pe_mode, MODES)
        check_choice("norm", self.norm, NORMS)
        check_int("seed", self.seed, 0, MAX_SEED)
        if self.width > MAX_D:
            raise InputError(
                f"with concatenated positions the width is D + D = {self.width}, above {MAX_D}",
                "width_cap",
                width=self.width,
                hi=MAX_D,
                half=MAX_D // 2,
            )
        if self.d_head is not None:
            check_int("d_head", self.d_head, 1, MAX_D_HEAD)
        elif self.width % self.H:
            nearest = nearest_heads(self.width, self.H)
            raise InputError(
                f"width {self.width} is not divisible by H={self.H}; nearest valid H: {nearest}",
                "heads_divide",
                width=self.width,
                H=self.H,
                nearest=nearest,
            )

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


def nearest_heads(width: int, H: int) -> int:
    """The divisor of ``width`` in [1, MAX_H] closest to H (the smaller one on a tie)."""
    return min((h for h in range(1, MAX_H + 1) if width % h == 0), key=lambda h: (abs(h - H), h))


@dataclass(frozen=True)
class Result:
    tokens: list[str]
    scores: np.ndarray  # (H, N, N) pre-softmax, float32
    weights: np.ndarray  # (H, N, N) softmax rows, float32
    pipeline: pd.DataFrame  # step, formula (LaTeX), shape
    formulas: list[str]  # LaTeX of what was computed


@torch.inference_mode()
def run(cfg: Config) -> Result:
    """Embed the text, add positions, run one block; return per-head maps and every shape."""
    tokens = tokenize(cfg.text)
    N = len(tokens)
    X = embed(tokens, cfg.D)  # (N, D)
    X_in = PositionalEncoding(cfg.D, cfg.pe, cfg.pe_mode, seed=cfg.seed)(X)  # (N, width)
    block = TransformerBlock(
        cfg.width,
        cfg.H,
        d_head=cfg.d_head,
        norm=cfg.norm,
        score=cfg.score,
        bias=False,  # the chapter's projections have no bias; the formulas shown have none
        seed=cfg.seed,
        device="cpu",
    )
    _, trace = block(X_in, mask=causal_mask(N) if cfg.causal else None)
    a = trace.attn
    shapes = [(N, cfg.D)]
    if cfg.pe != "none":
        shapes.append((N, cfg.width))
    shapes += [
        tuple(a.q.shape[1:]),  # (H, N, D′)
        tuple(a.scores.shape[1:]),  # (H, N, N)
        tuple(a.weights.shape[1:]),
        tuple(a.head_out.shape[1:]),  # (H, N, D′)
        tuple(a.concat.shape[1:]),  # (N, H·D′)
        tuple(trace.attn_out.shape[1:]),  # (N, width)
    ]
    steps = formulas.pipeline(cfg.score, pe_kind=cfg.pe, pe_mode=cfg.pe_mode, causal=cfg.causal)
    pipeline = pd.DataFrame(
        [
            (step, formula, " × ".join(map(str, shape)))
            for (step, formula), shape in zip(steps, shapes, strict=True)
        ],
        columns=["step", "formula", "shape"],
    )
    shown = [formulas.positions(cfg.pe, cfg.pe_mode)] if cfg.pe != "none" else []
    return Result(
        tokens=tokens,
        scores=a.scores[0].float().numpy(),
        weights=a.weights[0].float().numpy(),
        pipeline=pipeline,
        formulas=shown + formulas.multihead(cfg.score, causal=cfg.causal),
    )
