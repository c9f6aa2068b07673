"""Tables for CSV downloads: attention maps in long form, one row per (…, query, key); one
weight's steps, and the points of a query–key picture."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .qkspace import QKSpace
from .scores import spec_of
from .stepthrough import WeightSteps
from .text import token_labels


def long_table(
    maps: np.ndarray,
    labels: Sequence[str],
    value: str,
    lead: Sequence[str] = ("head",),
    query: str = "query",
    key: str = "key",
) -> pd.DataFrame:
    """``maps`` of shape (*lead, N, N) as rows (*lead, query, key, value), lead indices first,
    counting from 1 as the pages number layers and heads; the headers are the names given.

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
    columns = {name: grid[k] + 1 for k, name in enumerate(lead)}
    columns |= {query: lab[grid[-2]], key: lab[grid[-1]], value: maps.reshape(-1)}
    return pd.DataFrame(columns)


def step_tables(steps: WeightSteps, tokens: list[str]) -> dict[str, pd.DataFrame]:
    """The step-through's numbers as tables (CSV), headed by the chapter's symbols (1-based).

    ``terms``: the summands of s_ij; ``row``: s_i· and a_i·, and the mask m_i· (1: key l
    read, 0: masked) only where it masks a key; ``values``: v_j, a_ij v_j and head_{h,i}, one
    row per dimension d of D'. The pages head the words (``term``, ``l``, ``d``) in the
    reader's language (ui.steps).
    """
    i, j = steps.i + 1, steps.j + 1
    T = len(steps.terms)
    spec = spec_of(steps.score)
    factors = dict(zip(spec.factor_names(i, j), (steps.left, steps.right), strict=True))
    index = spec.term_index
    terms = pd.DataFrame(
        {**factors, "term": steps.terms}, index=pd.Index(range(1, T + 1), name=index)
    )
    row = {f"s_{i},l": steps.s_row}
    if not steps.m_row.all():  # a mask that reads every key says nothing
        row[f"m_{i},l"] = steps.m_row.astype(int)
    row[f"a_{i},l"] = steps.a_row
    row = pd.DataFrame(row, index=pd.Index(token_labels(tokens, escape=False), name="l"))
    values = pd.DataFrame(
        {f"v_{j},d": steps.v_j, f"a_{i},{j} v_{j},d": steps.a_ij_v_j, f"head_{i},d": steps.head_i},
        index=pd.Index(range(1, len(steps.v_j) + 1), name="d"),
    )
    return {"terms": terms, "row": row, "values": values}


def sent_table(steps: WeightSteps, tokens: list[str]) -> pd.DataFrame:
    """What each key l sends to query i through head h (1-based): a_il, ‖f_h(x_l)‖ and
    their product ‖a_il f_h(x_l)‖, one row per key."""
    i, h = steps.i + 1, steps.h + 1
    return pd.DataFrame(
        {
            f"a_{i},l": steps.a_row,
            f"|f_{h}(x_l)|": steps.f_row,
            f"|a_{i},l f_{h}(x_l)|": steps.a_row * steps.f_row,
        },
        index=pd.Index(token_labels(tokens, escape=False), name="l"),
    )


def qk_table(space: QKSpace, tokens: list[str]) -> pd.DataFrame:
    """Every point of the query–key picture: kind, sentence, position (1-based), token, x, y."""
    n = len(tokens)
    frames = []
    for kind, points in (("q", space.queries), ("k", space.keys)):
        frames.append(
            pd.DataFrame(
                {
                    "kind": kind,
                    "sentence": space.sentence + 1,
                    "position": space.position + 1,
                    "token": tokens,
                    "x": points[:, 0],
                    "y": points[:, 1],
                },
                index=range(n),
            )
        )
    return pd.concat(frames, ignore_index=True)
