"""Where the engine computes: ``"auto"`` means CUDA, then MPS, then CPU.

The environment variable ``ATTNVIZ_DEVICE`` overrides ``"auto"``. Work made of many tiny
kernels run one after another asks with ``many_small_kernels=True`` and gets the CPU for
``"auto"``: on a GPU each of their kernel launches costs more than its arithmetic, so the
training race and the depth gradients run faster on the CPU (``tools/gpu-check.sh`` times
both).
"""

from __future__ import annotations

import os

import numpy as np
import torch

DTYPES = {"float32": torch.float32, "float64": torch.float64}


def resolve_device(
    device: str | torch.device = "auto", *, many_small_kernels: bool = False
) -> torch.device:
    """Turn ``"auto"`` (or ``ATTNVIZ_DEVICE``) into a concrete ``torch.device``; with
    ``many_small_kernels`` an unset ``"auto"`` means the CPU (see the module's note)."""
    if isinstance(device, torch.device):
        return device
    if device == "auto":
        device = os.environ.get("ATTNVIZ_DEVICE", "auto")
    if device == "auto" and many_small_kernels:
        return torch.device("cpu")
    if device == "auto":
        if torch.cuda.is_available():
            return torch.device("cuda")
        if getattr(torch.backends, "mps", None) and torch.backends.mps.is_available():
            return torch.device("mps")
        return torch.device("cpu")
    try:
        return torch.device(device)
    except RuntimeError as err:
        raise ValueError(f"device must be 'auto', 'cpu', 'cuda' or 'mps'; got {device!r}") from err


def resolve_dtype(dtype: str | torch.dtype = torch.float32) -> torch.dtype:
    """Accept ``torch.float32``/``torch.float64`` or their names."""
    if isinstance(dtype, str):
        if dtype not in DTYPES:
            raise ValueError(f"dtype must be one of {', '.join(DTYPES)}; got {dtype!r}")
        return DTYPES[dtype]
    if dtype not in DTYPES.values():
        raise ValueError(f"dtype must be float32 or float64; got {dtype}")
    return dtype


def describe_device(device: torch.device) -> str:
    """A short human label, e.g. ``cuda (NVIDIA H200)`` or ``cpu``."""
    if device.type == "cuda":
        return f"cuda ({torch.cuda.get_device_name(device)})"
    return device.type


def to_numpy(t: torch.Tensor) -> np.ndarray:
    """A tensor as a float64 NumPy array on the CPU."""
    return t.detach().to("cpu", torch.float64).numpy()
