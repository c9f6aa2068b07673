"""Permutation equivariance (S7, S15, S16): f(PX) = P f(X) holds without positions only.

f is one Transformer block after a positional encoding: f(X) = Block(PE(X)).
The block's attention weights obey A(PX) = P A(X) Pᵀ and its position-wise parts
(FFN, LayerNorm, residuals) commute with P, so without PE the error
max |f(PX) − P f(X)| is float32 rounding (≈ 1e-7). PE ties p_i to the slot i, not
to the token, so PE(PX) ≠ P PE(X) and the equality breaks.

A permutation is an index array ``perm`` (0-based, as the engine's arrays): (PX)_i =
X_{perm[i]}, P = I[perm]. A typed order is the reader's: positions 1 … N, as the page
numbers the tokens.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from .. import formulas
from ..block import TransformerBlock
from ..device import resolve_device
from ..errors import InputError
from ..limits import MAX_D, MAX_H, MAX_SEED, check_choice, check_heads, check_int, check_width
from ..norms import NORMS
from ..positional import KINDS, MODES, PositionalEncoding
from ..positional import width as positional_width
from ..text import embed, tokenize
from .threads import one_thread

PERMUTATIONS = ("reverse", "shuffle", "swap", "typed")
MAX_TOKENS = 48  # tokens shown on this page (N × N maps and an N × D difference map)
WIDTHS = tuple(2**k for k in range(3, 9))  # the widths D the page offers, 8 … 256
HEADS = (1, 2, 4, 8)  # the head counts the page offers: each divides every width above
TOLERANCE = 1e-5  # above float32 rounding of one block, far below any PE effect


@dataclass(frozen=True)
class Config:
    text: str
    perm: str = "reverse"  # the kind of permutation P, one of PERMUTATIONS
    perm_seed: int = 0  # shuffle: its seed
    i: int = 0  # swap: positions i ↔ j, 0-based (past the sentence's end: its last token)
    j: int = 1
    order: str = ""  # typed: the old positions 1 … N in their new order, "3,1,2"
    D: int = 32  # width of the word vectors
    H: int = 2  # heads
    pe: str = "none"  # positional encoding kind
    pe_mode: str = "add"  # add: width D; concat: width 2D
    norm: str = "post"
    seed: int = 0  # weights, learned positions

    def __post_init__(self) -> None:
        tokenize(self.text)
        check_choice("permutation", self.perm, PERMUTATIONS)
        check_int("seed", self.perm_seed, 0, MAX_SEED)
        check_int("i", self.i, 0, MAX_TOKENS - 1)
        check_int("j", self.j, 0, MAX_TOKENS - 1)
        if not isinstance(self.order, str):
            raise ValueError(f"order must be a string, got {type(self.order).__name__}")
        check_int("D", self.D, 1, MAX_D)
        check_int("H", self.H, 1, MAX_H)
        check_choice("positional encoding", self.pe, KINDS)
        check_choice("positional encoding mode", self.pe_mode, MODES)
        check_choice("norm", self.norm, NORMS)
        check_int("seed", self.seed, 0, MAX_SEED)
        check_width(self.width)
        check_heads(self.width, self.H)

    @property
    def width(self) -> int:
        """The width the block sees: D, or D + D with concatenated positions (S16)."""
        return positional_width(self.D, self.pe, self.pe_mode)


def permutation(
    kind: str, N: int, *, seed: int = 0, i: int = 0, j: int = 1, typed: str = ""
) -> np.ndarray:
    """Indices ``perm`` of P: reverse, a seeded shuffle, swap i ↔ j, or a typed order "3,1,2".

    ``i``, ``j`` and the result are 0-based; a typed order lists the positions 1 … N, so
    "3,1,2" gives perm = [2, 0, 1]. Raises ``InputError`` (a ValueError) when it is not a
    permutation of 1 … N.
    """
    kind = check_choice("permutation", kind, PERMUTATIONS)
    N = check_int("N", N, 1, MAX_TOKENS)
    if kind == "reverse":
        return np.arange(N)[::-1].copy()
    if kind == "shuffle":
        g = torch.Generator().manual_seed(check_int("seed", seed, 0, MAX_SEED))
        return torch.randperm(N, generator=g).numpy()
    if kind == "swap":
        perm = np.arange(N)
        i, j = check_int("i", i, 0, N - 1), check_int("j", j, 0, N - 1)
        perm[[i, j]] = perm[[j, i]]
        return perm
    try:  # int() of a part that is no number is a ValueError: here, a student's typing
        perm = np.array([int(part) - 1 for part in typed.replace(" ", "").split(",") if part])
    except ValueError:
        raise InputError(
            f"order must list 1 … {N} separated by commas", "order", order=typed, last=N
        ) from None
    if sorted(perm.tolist()) != list(range(N)):
        raise InputError(
            f"order must list each of 1 … {N} exactly once", "order", order=typed, last=N
        )
    return perm


def resolve(cfg: Config, N: int) -> tuple[np.ndarray, tuple[int, int] | None, str | None]:
    """The permutation ``cfg`` asks for on N tokens, the positions a swap exchanges, and a
    notice key when a typed order falls back.

    Swap positions past the sentence's end mean its last token. A typed order that is not
    a permutation of 1 … N gives the reverse order with the notice "bad_order"
    ("order_help" while nothing is typed yet).
    """
    if cfg.perm == "swap":
        i, j = min(cfg.i, N - 1), min(cfg.j, N - 1)
        return permutation("swap", N, i=i, j=j), (i, j), None
    if cfg.perm != "typed":
        return permutation(cfg.perm, N, seed=cfg.perm_seed), None, None
    try:
        return permutation("typed", N, typed=cfg.order), None, None
    except InputError:
        notice = "bad_order" if cfg.order.strip() else "order_help"
        return permutation("reverse", N), None, notice


@dataclass(frozen=True)
class Result:
    tokens: list[str]  # the first MAX_TOKENS tokens of the text
    cut: bool  # whether the text had more tokens than MAX_TOKENS
    perm: np.ndarray  # (N,) (PX)_i = X_{perm[i]}
    perm_tokens: list[str]  # the tokens of PX
    swapped: tuple[int, int] | None  # swap: the positions i, j exchanged
    notice: str | None  # "bad_order" / "order_help" when a typed order fell back to reverse
    P: np.ndarray  # (N, N) P = I[perm]
    A: np.ndarray  # (H, N, N) weights for X
    A_P: np.ndarray  # (H, N, N) weights for PX
    PAPt: np.ndarray  # (H, N, N) P A Pᵀ: A with rows and columns permuted
    out: np.ndarray  # (N, W) f(X), W = D or 2D (concatenated PE)
    diff: np.ndarray  # (N, W) f(PX) − P f(X)
    error: float  # max |f(PX) − P f(X)|
    attn_error: float  # max |A(PX) − P A(X) Pᵀ|
    verdict: str  # "identity" (P = I), "holds" (error < TOLERANCE) or "breaks"
    formulas: list[str]  # LaTeX of what was computed

    @property
    def out_scale(self) -> float:
        """max |f(X)|: what the difference map's colours are relative to."""
        return float(np.abs(self.out).max())

    @property
    def rounding_only(self) -> bool:
        """Whether f(PX) and P f(X) differ (P ≠ I) only at float32 rounding level."""
        return self.verdict == "holds"


def tokens_of(text: str) -> tuple[list[str], bool]:
    """The first MAX_TOKENS tokens of ``text``, and whether any were cut."""
    tokens = tokenize(text)
    return tokens[:MAX_TOKENS], len(tokens) > MAX_TOKENS


@torch.inference_mode()
def run(cfg: Config) -> Result:
    """f(X) and f(PX) for one block after positional encoding ``cfg.pe``; the equivariance error.

    Shape:
        X (N, D) -> f(X) (N, W) with W = D (added or no PE) or 2D (concatenated)

    Without PE the error is rounding, whose digits follow the order of each matmul's sums,
    and that order follows torch's thread count (one while another lesson trains in the
    process: attnviz.lessons.threads); computed on one thread always, a link shows the same
    error in any process, whatever else it is doing.
    """
    with one_thread():
        return _run(cfg)


def _run(cfg: Config) -> Result:
    tokens, cut = tokens_of(cfg.text)
    N = len(tokens)
    p, swapped, notice = resolve(cfg, N)
    X = embed(tokens, cfg.D)  # (N, D)
    PX = X[torch.from_numpy(p)]  # (N, D) rows permuted
    enc = PositionalEncoding(cfg.D, cfg.pe, cfg.pe_mode, seed=cfg.seed)
    device = resolve_device()
    block = TransformerBlock(cfg.width, cfg.H, norm=cfg.norm, seed=cfg.seed, device=device)
    out, trace = block(enc(X).to(device))  # (N, W)
    out_P, trace_P = block(enc(PX).to(device))  # (N, W)
    out, out_P = out.cpu(), out_P.cpu()
    A = trace.attn.weights[0].cpu().numpy()  # (H, N, N)
    A_P = trace_P.attn.weights[0].cpu().numpy()  # (H, N, N)
    PAPt = A[:, p][:, :, p]  # (P A Pᵀ)_{ij} = A_{perm[i], perm[j]}
    diff = (out_P - out[torch.from_numpy(p)]).numpy()  # (N, W)
    error = float(np.abs(diff).max())
    if (p == np.arange(N)).all():
        verdict = "identity"
    else:
        verdict = "holds" if error < TOLERANCE else "breaks"
    return Result(
        tokens=tokens,
        cut=cut,
        perm=p,
        perm_tokens=[tokens[k] for k in p],
        swapped=swapped,
        notice=notice,
        P=np.eye(N, dtype=np.float32)[p],
        A=A,
        A_P=A_P,
        PAPt=PAPt,
        out=out.numpy(),
        diff=diff,
        error=error,
        attn_error=float(np.abs(A_P - PAPt).max()),
        verdict=verdict,
        formulas=[*formulas.equivariance(cfg.pe, cfg.pe_mode), formulas.block(cfg.norm)],
    )
