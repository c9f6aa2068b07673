"""Long tables of attention maps: one row per (…, query, key), for CSV downloads."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd


def long_table(
    maps: np.ndarray, labels: Sequence[str], value: str, lead: Sequence[str] = ("head",)
) -> pd.DataFrame:
    """``maps`` of shape (*lead, N, N) as rows (*lead, query, key, value), lead indices first.

    Shape:
        maps (A, B, …, N, N) with ``len(lead)`` leading axes -> a (A·B·…·N·N)-row table.
    """
    maps = np.asarray(maps)
    *sizes, n_q, n_k = maps.shape
    if len(sizes) != len(lead) or (n_q, n_k) != (len(labels), len(labels)):
        raise ValueError(
            f"maps of shape {maps.shape} do not match {len(lead)} lead axes, N={len(labels)}"
        )
    grid = np.indices((*sizes, n_q, n_k)).reshape(len(sizes) + 2, -1)  # every index tuple
    lab = np.asarray(labels, dtype=object)
    columns = {name: grid[k] for k, name in enumerate(lead)}
    columns |= {"query": lab[grid[-2]], "key": lab[grid[-1]], value: maps.reshape(-1)}
    return pd.DataFrame(columns)
