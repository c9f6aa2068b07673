"""The app's own components (``st.components.v2``): code from ``ui/<stem>.js`` and
``ui/<stem>.css``, and the numbering that lets a component skip data it already shows."""

from __future__ import annotations

import hashlib
import pickle
import uuid
from pathlib import Path

import streamlit as st

from .keys import ORDER, own

HERE = Path(__file__).parent
# what a component uses besides ui/common's, put before its own: the code and the style of
# each, where it has one (ui/vendor: KaTeX's style, for the formulas of ui/steps.js)
USES = {"steps": ("svg", "bars", "vendor/katex-0.18.10")}


def component_js(stem: str) -> str:
    """The code of component ``stem``: ``ui/<stem>.js`` preceded by ``ui/common.js`` (it draws
    only data newer than it shows, numbered by :func:`ordered`, and notes under a picture)
    and by the files ``USES`` names for it."""
    files = [HERE / f"{f}.js" for f in ("common", *USES.get(stem, ()), stem)]
    return "".join(f.read_text(encoding="utf-8") for f in files if f.exists())


def component(name: str, stem: str, *, isolated: bool = True):
    """An ``st.components.v2`` component of ``component_js(stem)`` and ``ui/<stem>.css``
    preceded by ``ui/common.css`` and the style of what ``USES`` names for it.

    ``isolated``: drawn in a shadow root of its own. Otherwise in the page's DOM, where the
    page's styles reach it (its KaTeX fonts and the sizes of its formulas, for ui/steps.js),
    and its rules, nested under the class ``attnviz-<stem>`` of its root, reach nothing else."""
    files = [HERE / f"{f}.css" for f in ("common", *USES.get(stem, ()), stem)]
    css = "".join(f.read_text(encoding="utf-8") for f in files if f.exists())
    if not isolated:
        css = f".attnviz-{stem} {{\n{css}}}\n"
    return st.components.v2.component(name, css=css, js=component_js(stem), isolate_styles=isolated)


def ordered(key: str, data: dict) -> dict:
    """``data`` with ``order``: [this session, a number that grows each time the data of
    component ``key`` changes]. Equal data keeps its number, so a rerun that changes
    nothing of it does not draw it again. Why: ui/common.js.

    Data whose every value is the very object of the last run (a payload drawn once per
    process, ui.drawn) or an equal short value is the same data, and is not hashed again;
    other data is compared by a digest of its pickle (much cheaper than JSON for a large
    map). Two equal payloads built differently may pickle apart; that only draws them once
    more.

    Lists go out as tuples (the same JSON arrays): Streamlit asks of each value of a
    component's data whether it is a table, a cost for a list and none for a tuple."""
    session, numbers = own().setdefault(ORDER, (uuid.uuid4().hex, {}))
    last, digest, n = numbers.get(key, (None, None, 0))
    if not _same(last, data):
        new = hashlib.blake2b(pickle.dumps(data, protocol=5), digest_size=16).digest()
        if new != digest:
            n, digest = n + 1, new
    numbers[key] = (dict(data), digest, n)
    shipped = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}
    return shipped | {"order": (session, n)}


SHORT = (str, int, float, bool, type(None))


def _same(last: dict | None, data: dict) -> bool:
    """Whether ``data`` holds what ``last`` held, compared without pickling: each value the
    same object, or equal plain values (strings, numbers) in lists, tuples and dicts."""
    return last is not None and _alike(last, data, 4)


def _alike(w: object, v: object, depth: int) -> bool:
    if v is w:
        return True
    if type(v) is not type(w) or depth == 0:
        return False
    if isinstance(v, SHORT):
        return v == w
    if isinstance(v, list | tuple):
        if len(v) != len(w):
            return False
        if all(isinstance(x, SHORT) for x in v):
            return v == w
        return all(_alike(b, a, depth - 1) for a, b in zip(v, w, strict=True))
    if isinstance(v, dict):
        return v.keys() == w.keys() and all(_alike(w[k], v[k], depth - 1) for k in v)
    return False
