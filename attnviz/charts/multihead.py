"""The multi-head page's grid of heads: ``head_tiles``, one layer's H maps as one
pre-coloured image (a :class:`Mosaic`) that the app shows as clickable tiles. (The charts
under a picked cell are ``charts.steps``; a head's query–key picture is ``charts.qkspace``.)
"""

from __future__ import annotations

import numpy as np

from .raster import colour, pool
from .real_model import Mosaic

TILE_COLS = (4, 8)  # tiles per row: 4 up to 8 heads, else 8
TITLE_PX = 18  # height on screen of the band for each tile's title
TITLE_PX_LARGE = 34  # the same for presentation mode's larger titles, in a narrower column


def tile_cols(H: int) -> int:
    """Tiles per row of a grid of H heads."""
    return min(H, TILE_COLS[0] if H <= 8 else TILE_COLS[1])


def head_tiles(
    weights: np.ndarray,
    *,
    zmin: float = 0.0,
    zmax: float = 1.0,
    width_px: int = 520,
    title_px: int = TITLE_PX,
) -> Mosaic:
    """(H, N, N) maps → a :class:`Mosaic` of ``tile_cols(H)`` tiles per row, Viridis from
    ``zmin`` to ``zmax``, drawn about ``width_px`` wide.

    Maps wider than a tile on screen are max-pooled (a sharp peak stays visible); small
    ones are enlarged by whole pixels, so that the gaps stay thin at any N. A band above
    each row leaves ~``title_px`` on screen for the tiles' titles; tiles past H are white.
    """
    W = np.asarray(weights, dtype=np.float32)
    H = W.shape[0]
    cols = tile_cols(H)
    rows = -(-H // cols)
    target = max(8, width_px // cols)  # pixels of one tile on screen
    maps = [pool(w, target) for w in W]
    n = maps[0].shape[0]
    up = max(1, target // n)
    cell = n * up
    gap = max(2, cell // 16)
    band = -(-title_px * (cols * (cell + gap) - gap) // width_px)
    step, step_y = cell + gap, band + cell + gap  # as Mosaic.step, Mosaic.step_y
    canvas = np.full((rows * step_y - gap, cols * step - gap, 3), 255, dtype=np.uint8)
    for h, w in enumerate(maps):
        r, c = divmod(h, cols)
        y, x = band + r * step_y, c * step
        rgb = colour(w, zmin, zmax).repeat(up, axis=0).repeat(up, axis=1)  # (cell, cell, 3)
        canvas[y : y + cell, x : x + cell] = rgb
    return Mosaic(canvas, rows, cols, cell, gap, band)
