"""Caps that protect a shared server, and the checks that enforce them.

The caps are the server's, not the engine's: the lessons' configs and the app check them
where the server's inputs arrive, and the UI's slider bounds come from the same constants.
The engine (attention, block, stack, scores, positions) checks structure only: shapes,
divisibility and dtypes (``check_size``, ``check_tokens``), so a notebook runs GPT-2's
1024 tokens or a 36-layer stack. Nothing is clamped: bad input raises ``ValueError``
naming the parameter and its allowed range.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import torch

from .errors import InputError, NonFinite

MAX_N = 512  # tokens (keys or queries)
MAX_D = 1024  # model width D
MAX_H = 32  # heads H
MAX_LAYERS = 24  # blocks in a stack L
MAX_D_FF = 4096  # FFN hidden width D_ff
MAX_D_HEAD = 1024  # per-head width D'
MAX_HEADS_WIDTH = 4096  # H·D', the width of Q, K and V: MAX_HEAVY layers at it fit a replica
MAX_MLP_HIDDEN = 256  # hidden width of the MLP score
MAX_TEXT_CHARS = 2000  # characters of user text
MAX_SEED = 2**31 - 1


def check_int(name: str, value: object, lo: int, hi: int) -> int:
    """Return ``value`` as an int if it is an integer in [lo, hi], else raise ValueError."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise InputError(
            f"{name} must be an integer in [{lo}, {hi}], got {value!r}",
            "integer",
            name=name,
            lo=lo,
            hi=hi,
            value=repr(value),
        )
    if not lo <= int(value) <= hi:
        raise InputError(
            f"{name} must be in [{lo}, {hi}], got {value}",
            "range",
            name=name,
            lo=lo,
            hi=hi,
            value=value,
        )
    return int(value)


def check_size(name: str, value: object) -> int:
    """Return ``value`` as an int if it is an integer ≥ 1 (a structural size: no cap)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise InputError(
            f"{name} must be an integer ≥ 1, got {value!r}", "size", name=name, value=repr(value)
        )
    if int(value) < 1:
        raise InputError(
            f"{name} must be an integer ≥ 1, got {value}", "size", name=name, value=value
        )
    return int(value)


def check_float(name: str, value: object, lo: float, hi: float) -> float:
    """Return ``value`` as a float if it is finite and in [lo, hi], else raise ValueError."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InputError(
            f"{name} must be a finite number in [{lo}, {hi}], got {value!r}",
            "number",
            name=name,
            lo=lo,
            hi=hi,
            value=repr(value),
        )
    if not lo <= value <= hi:
        raise InputError(
            f"{name} must be in [{lo}, {hi}], got {value}",
            "range",
            name=name,
            lo=lo,
            hi=hi,
            value=value,
        )
    return float(value)


def check_choice(name: str, value: object, choices: Iterable[str]) -> str:
    """Return ``value`` if it is one of ``choices``, else raise ValueError listing them."""
    choices = tuple(choices)
    if value not in choices:
        raise InputError(
            f"{name} must be one of {', '.join(choices)}; got {value!r}",
            "choice",
            name=name,
            choices=", ".join(choices),
            value=repr(value),
        )
    return value  # type: ignore[return-value]


def check_finite(name: str, x: torch.Tensor) -> torch.Tensor:
    """Raise ``NonFinite`` (a ValueError) if ``x`` holds NaN or infinity."""
    if not torch.isfinite(x).all():
        raise NonFinite(
            f"{name} must contain only finite values (no NaN or inf)", "finite", name=name
        )
    return x


def check_tokens(name: str, x: torch.Tensor, d: int, finite: bool | None = None) -> torch.Tensor:
    """Validate the structure of a token matrix (N, D) or batch (B, N, D): its rank, N ≥ 1,
    width ``d``, a float dtype. No cap on N: the server's caps are checked where its inputs
    arrive (the lessons' configs, the app).

    ``finite``: True checks for NaN and inf, False never; None (default) checks only where it
    costs no synchronisation, on the CPU (on a GPU, ``torch.isfinite(x).all()`` waits for it).
    """
    if x.dim() not in (2, 3):
        raise ValueError(f"{name} must have shape (N, D) or (B, N, D), got {tuple(x.shape)}")
    if not x.is_floating_point():
        raise ValueError(f"{name} must be float32 or float64, got {x.dtype}")
    n, width = x.shape[-2], x.shape[-1]
    if n == 0:
        raise InputError(f"{name} must hold at least 1 token, got N=0", "no_tokens", hi=MAX_N)
    if width != d:
        raise ValueError(f"{name}: last dimension must equal D={d}, got {width}")
    if finite or (finite is None and x.device.type == "cpu"):
        check_finite(name, x)
    return x


def nearest_heads(width: int, H: int, came_from: int | None = None) -> int:
    """The divisor of ``width`` in [1, MAX_H] closest to H (the smaller one on a tie).

    ``came_from``: the H a control moved from to H. The divisor is then the closest on
    H's side of it, so that a slider stepped one way moves on instead of snapping back
    (from 8 at width 64, H = 9 gives 16, not 8); the closest overall if there is none."""
    divisors = [h for h in range(1, MAX_H + 1) if width % h == 0]
    if came_from is not None and came_from != H:
        ahead = [h for h in divisors if (h - came_from) * (H - came_from) > 0]
        divisors = ahead or divisors
    return min(divisors, key=lambda h: (abs(h - H), h))


def max_d_head(H: int) -> int:
    """The widest D′ for H heads: MAX_D_HEAD, and H·D′ ≤ MAX_HEADS_WIDTH (W^Q, W^K, W^V and
    W^O hold width × H·D′ numbers each: bench/README.md, bench_burst, has the memory)."""
    return max(1, min(MAX_D_HEAD, MAX_HEADS_WIDTH // H))


def check_heads(width: int, H: int) -> None:
    """The rule of D′ = width / H: H must divide the width attention reads; the error names
    the nearest H that does (``heads_divide``)."""
    if width % H:
        nearest = nearest_heads(width, H)
        raise InputError(
            f"width {width} is not divisible by H={H}; nearest valid H: {nearest}",
            "heads_divide",
            width=width,
            H=H,
            nearest=nearest,
        )


def check_width(width: int) -> None:
    """The width after concatenated positions (D + D) stays within MAX_D (``width_cap``)."""
    if width > MAX_D:
        raise InputError(
            f"with concatenated positions the width is D + D = {width}, above {MAX_D}",
            "width_cap",
            width=width,
            hi=MAX_D,
            half=MAX_D // 2,
        )
