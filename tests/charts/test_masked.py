"""A causal model's maps: the cells the mask forbids are drawn masked (grey), at every size,
pooled or not, and the enlarged map's payload marks them (NaN, with their tooltip label)."""

import numpy as np

from attnviz.charts.cells import cell_map
from attnviz.charts.raster import MASKED_RGB, colour, pool
from attnviz.charts.real_model import mosaic
from tests.app.helpers import cell_values


def causal(N: int, seed: int = 0) -> np.ndarray:
    A = np.random.default_rng(seed).random((N, N)).astype(np.float32)
    A = np.tril(A)
    return A / A.sum(-1, keepdims=True)


def test_pooling_keeps_a_block_masked_only_when_all_its_cells_are():
    z = np.where(np.triu(np.ones((6, 6), bool), 1), np.nan, np.arange(36.0).reshape(6, 6))
    pooled = pool(z, 3)  # 2 × 2 blocks
    assert np.isnan(pooled[0, 1]) and np.isnan(pooled[0, 2]) and np.isnan(pooled[1, 2])
    assert pooled[0, 0] == 7 and pooled[2, 2] == 35  # a diagonal block: its largest allowed
    assert (colour(pooled, 0, 35)[np.isnan(pooled)] == MASKED_RGB).all()


def test_a_causal_mosaic_greys_the_upper_half_even_when_pooled():
    N = 300  # pooled to 100 pixels a side
    m = mosaic(causal(N)[None, None], causal=True)
    tile = m.tile(0, 0)
    n = m.cell
    assert n < N
    assert (tile[np.triu_indices(n, 1)] == MASKED_RGB).all()
    assert not (tile[np.tril_indices(n)] == MASKED_RGB).all(-1).any()
    plain = mosaic(causal(N)[None, None]).tile(0, 0)  # without the flag: zeros, coloured
    assert not (plain == MASKED_RGB).all(-1).any()


def test_the_enlarged_map_marks_its_masked_cells():
    A = causal(5)
    masked = np.triu(np.ones((5, 5), bool), 1)
    payload = cell_map(A, list("abcde"), list("abcde"), masked=masked, masked_label="masked")
    z = cell_values(payload).reshape(5, 5)
    assert np.isnan(z[masked]).all()
    np.testing.assert_allclose(z[~masked], A[~masked])
    assert payload["maskedLabel"] == "masked"
