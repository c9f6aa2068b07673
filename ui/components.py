"""The app's own components (``st.components.v2``): code from ``ui/<stem>.js`` and
``ui/<stem>.css``, and the numbering that lets a component skip data it already shows."""

from __future__ import annotations

import hashlib
import pickle
import uuid
from pathlib import Path

import streamlit as st

from .keys import ORDER

HERE = Path(__file__).parent
USES = {"bars": ("svg",)}  # the code a component uses besides ui/common.js, put before its own


def component_js(stem: str) -> str:
    """The code of component ``stem``: ``ui/<stem>.js`` preceded by ``ui/common.js`` (it draws
    only data newer than it shows, numbered by :func:`ordered`, and notes under a picture)
    and by the files ``USES`` names for it."""
    files = ("common", *USES.get(stem, ()), stem)
    return "".join((HERE / f"{f}.js").read_text(encoding="utf-8") for f in files)


def component(name: str, stem: str):
    """An ``st.components.v2`` component of ``component_js(stem)`` and ``ui/<stem>.css``
    preceded by ``ui/common.css``."""
    css = "".join((HERE / f"{f}.css").read_text(encoding="utf-8") for f in ("common", stem))
    return st.components.v2.component(name, css=css, js=component_js(stem))


def ordered(key: str, data: dict) -> dict:
    """``data`` with ``order``: [this session, a number that grows each time the data of
    component ``key`` changes]. Equal data keeps its number, so a rerun that changes
    nothing of it does not draw it again. Why: ui/common.js.

    The digest is of the pickle, on every rerun: much cheaper than JSON for a large map.
    Two equal payloads built differently may pickle apart; that only draws them once more."""
    session, numbers = st.session_state.setdefault(ORDER, (uuid.uuid4().hex, {}))
    digest = hashlib.blake2b(pickle.dumps(data, protocol=5), digest_size=16).digest()
    last, n = numbers.get(key, (None, 0))
    if digest != last:
        n += 1
        numbers[key] = (digest, n)
    return data | {"order": [session, n]}
