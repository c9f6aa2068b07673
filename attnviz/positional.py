"""Positional encodings (S15, S16): a vector p_i per position, added or concatenated.

Without them self-attention treats its input as a set (S7, S15). ``kind`` is
``none``, ``sinusoidal`` (fixed in advance) or ``learned`` (a parameter);
``mode`` is ``add`` (x_i + p_i, width stays D) or ``concat`` ([x_i; p_i], width
grows to D + d_pos: the model that follows must be built for ``out_dim``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import nn

from .limits import MAX_N, check_choice, check_int, check_size, check_tokens


@dataclass(frozen=True)
class Kind:
    """Where p_i comes from; the formulas, lessons and pages ask it, not its name."""

    name: str
    present: bool  # adds anything: without positions self-attention sees a set (S15)
    learned: bool  # a parameter drawn from a seed, not fixed in advance
    formula: str | None  # LaTeX of how the table is computed, when it is a formula
    label: str  # i18n key of its name


@dataclass(frozen=True)
class Mode:
    """How p_i enters (S16): added, width D, or concatenated, width D + d_pos."""

    name: str
    concat: bool
    enters: str  # LaTeX: what enters the first layer
    step: str  # the symbol of the input once positions are in: X + E or [X; E]
    permuted: str  # LaTeX of the encoded input of PX, and of P times the encoded X,
    of_permuted: str  # which differ (S7 broken)
    label: str  # i18n key of its name

    def width(self, D: int, d_pos: int) -> int:
        return D + d_pos if self.concat else D


SINUSOIDAL = (  # 1-based: p_1 is position 0 of the usual 0-based table, component 1 a sine
    r"\begin{aligned}(\mathbf{p}_i)_{2k-1} &= \sin\!\big((i - 1)\,\omega_k\big) \\"
    r" (\mathbf{p}_i)_{2k} &= \cos\!\big((i - 1)\,\omega_k\big) \\"
    r" \omega_k &= 10000^{-2(k-1)/D} \\ k &= 1, \dots, D/2\end{aligned}"
)
KINDS = {
    k.name: k
    for k in (
        Kind("none", present=False, learned=False, formula=None, label="names.pe_none"),
        Kind("sinusoidal", True, learned=False, formula=SINUSOIDAL, label="names.pe_sinusoidal"),
        Kind("learned", present=True, learned=True, formula=None, label="names.pe_learned"),
    )
}
MODES = {
    m.name: m
    for m in (
        Mode(
            "add",
            concat=False,
            enters=r"X \leftarrow X + E,\quad"
            r" \mathbf{x}_i \leftarrow \mathbf{x}_i + \mathbf{p}_i",
            step="X + E",
            permuted=r"PX + E",
            of_permuted=r"P(X + E)",
            label="names.mode_add",
        ),
        Mode(
            "concat",
            concat=True,
            enters=r"X \leftarrow [X;\ E],\quad"
            r" \mathbf{x}_i \leftarrow [\mathbf{x}_i; \mathbf{p}_i]",
            step="[X; E]",
            permuted=r"[PX;\ E]",
            of_permuted=r"P[X;\ E]",
            label="names.mode_concat",
        ),
    )
}


def width(D: int, kind: str, mode: str, d_pos: int | None = None) -> int:
    """What the model after the encoding reads: D, or D + d_pos (default D) when positions
    are concatenated."""
    present = KINDS[check_choice("positional encoding", kind, KINDS)].present
    entering = MODES[check_choice("positional encoding mode", mode, MODES)]
    return entering.width(D, D if d_pos is None else d_pos) if present else D


def sinusoidal(N: int, D: int, base: float = 10000.0) -> torch.Tensor:
    """P[i, 2k] = sin(i / base^{2k/D}), P[i, 2k+1] = cos(i / base^{2k/D}).

    Shape:
        returns (N, D), float64 (cast by the caller).
    """
    N = check_size("N", N)
    D = check_size("D", D)
    pos = torch.arange(N, dtype=torch.float64)[:, None]  # (N, 1)
    freq = torch.exp(-math.log(base) * torch.arange(0, D, 2, dtype=torch.float64) / D)  # (⌈D/2⌉,)
    P = torch.zeros(N, D, dtype=torch.float64)
    P[:, 0::2] = torch.sin(pos * freq)
    P[:, 1::2] = torch.cos(pos * freq[: D // 2])
    return P


class PositionalEncoding(nn.Module):
    """Inject order: x_i ↦ x_i + p_i (``add``) or [x_i; p_i] (``concat``).

    Args:
        D: width of the tokens. kind, mode: see module docstring.
        d_pos: width of p_i in ``concat`` mode (default D); in ``add`` mode it is D.
        n_max: positions available to a learned encoding.
        seed: a learned encoding starts as N(0, 1) draws from this seed.

    Shape:
        x (N, D) or (B, N, D) -> (…, N, out_dim)
    """

    def __init__(
        self,
        D: int,
        kind: str = "sinusoidal",
        mode: str = "add",
        *,
        d_pos: int | None = None,
        n_max: int = MAX_N,
        seed: int = 0,
        dtype: torch.dtype = torch.float32,
    ) -> None:
        super().__init__()
        self.D = check_size("D", D)
        self.kind = check_choice("positional encoding", kind, KINDS)
        self.mode = check_choice("positional encoding mode", mode, MODES)
        concat = MODES[mode].concat
        self.d_pos = D if not concat or d_pos is None else check_size("d_pos", d_pos)
        self.n_max = check_size("n_max", n_max)
        if KINDS[kind].learned:
            g = torch.Generator().manual_seed(seed)
            self.W_pos = nn.Parameter(torch.randn(self.n_max, self.d_pos, generator=g, dtype=dtype))
        else:
            self.W_pos = None

    @property
    def out_dim(self) -> int:
        """Width after encoding: D when added (or kind none), D + d_pos when concatenated."""
        return width(self.D, self.kind, self.mode, self.d_pos)

    def table(self, N: int) -> torch.Tensor:
        """The (N, d_pos) matrix of p_1 … p_N (zeros for kind ``none``)."""
        N = check_int("N", N, 1, self.n_max)
        if KINDS[self.kind].learned:
            return self.W_pos[:N]
        if KINDS[self.kind].present:  # fixed in advance: the sinusoidal table
            return sinusoidal(N, self.d_pos)
        return torch.zeros(N, self.d_pos, dtype=torch.float64)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = check_tokens("x", x, self.D)
        if not KINDS[self.kind].present:
            return x
        P = self.table(x.shape[-2]).to(dtype=x.dtype, device=x.device)  # (N, d_pos)
        if not MODES[self.mode].concat:
            return x + P
        return torch.cat([x, P.expand(*x.shape[:-1], self.d_pos)], dim=-1)  # (…, N, D + d_pos)
