"""Pictures of matrices: the colour table, max-pooling to the size on screen, PNG encoding,
and the exact values behind a picture's tooltip (``floats``).

A large map (or many of them) is sent as one pre-coloured PNG rather than a Plotly heat
map: its payload and drawing time do not grow with the number of cells.
"""

from __future__ import annotations

import base64
import functools
import io

import numpy as np
import plotly.express as px
from PIL import Image

COLORSCALE = "Viridis"
MASKED_RGB = (224, 224, 224)  # a cell a mask forbids (not finite in the map): light grey


@functools.cache
def colour_table() -> np.ndarray:
    """The colour scale as a (256, 3) uint8 table, sampled once per process."""
    scale = px.colors.sample_colorscale(COLORSCALE, np.linspace(0, 1, 256))
    lut = np.array([px.colors.unlabel_rgb(c) for c in scale], dtype=np.uint8)
    lut.flags.writeable = False
    return lut


def colour(z: np.ndarray, zmin: float, zmax: float) -> np.ndarray:
    """Map values to uint8 RGB with the colour scale, zmin → its first colour, zmax → its last;
    a value that is not finite (a masked cell) → ``MASKED_RGB``."""
    z = np.asarray(z)
    finite = np.isfinite(z)
    scaled = np.where(finite, (z - zmin) / max(zmax - zmin, 1e-12) * 255, 0)
    rgb = colour_table()[np.clip(scaled, 0, 255).astype(np.uint8)]
    if not finite.all():
        rgb[~finite] = MASKED_RGB
    return rgb


def pool(m: np.ndarray, size: int) -> np.ndarray:
    """Max-pool a map by f = ⌈max side / size⌉ so no side exceeds ``size``; a sharp peak
    stays visible (padding with the map's minimum keeps the max unchanged)."""
    f = -(-max(m.shape) // size)
    if f == 1:
        return m
    a, b = -(-m.shape[0] // f), -(-m.shape[1] // f)
    m = np.pad(m, ((0, a * f - m.shape[0]), (0, b * f - m.shape[1])), constant_values=np.nan)
    blocks = m.reshape(a, f, b, f)
    seen = np.isfinite(blocks).any(axis=(1, 3))  # a block wholly masked stays masked
    peak = np.where(np.isfinite(blocks), blocks, -np.inf).max(axis=(1, 3))
    return np.where(seen, peak, np.nan)


def png_bytes(rgb: np.ndarray, compress_level: int = 1) -> bytes:
    """(h, w, 3) uint8 → PNG (a fast zlib level by default: these images are made per view)."""
    out = io.BytesIO()
    Image.fromarray(rgb).save(out, format="PNG", compress_level=compress_level)
    return out.getvalue()


def png_uri(png: bytes) -> str:
    """PNG bytes as a data URI, for an image trace's or an <img>'s source."""
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def floats(values: np.ndarray) -> str:
    """``values`` as little-endian float32 bytes, base64: ui/common.js reads them back
    exactly (a tooltip shows 4 decimals; a list of floats would be twice the size)."""
    return base64.b64encode(np.asarray(values, dtype="<f4").tobytes()).decode("ascii")
