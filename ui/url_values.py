"""A control's value read from the page's link (``?key=value``): parsed, clamped into range
or dropped with a translated notice, and forgotten when the browser went back or forward
(the link of that entry wins). ui/widgets.py seeds each control through ``from_url``."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TypeVar

import streamlit as st

from .internals import history_run
from .keys import BOUND, own
from .language import tr
from .messages import note
from .url_pack import PACKED, unpack_value

T = TypeVar("T")


def from_url(
    key: str, default: object, parse: Callable[[str], object], valid: Callable[[object], bool]
) -> bool:
    """Seed ``st.session_state[key]`` from ``?key=`` on first sight; True if a value is set.

    ``parse`` turns the URL text into a valid value (clamping where sensible) or raises
    ValueError; a rejected value is dropped with a translated notice. A value left under
    the same key by another page's widget that is not ``valid`` here is forgotten, and so
    is every value when the browser went back or forward: the URL of that entry wins.

    The control's default and its value go into ``BOUND`` (the share link reads them
    there); the widget drawn after this sets the value it shows (:func:`as_drawn`). The
    session is read once.
    """
    state = st.session_state
    value = state.get(key, _UNSET)
    if value is not _UNSET and (history_run() or not valid(value)):
        del state[key]
        value = _UNSET
    if value is _UNSET and in_url(key):
        try:
            raw = url_value(key)
            parsed = parse(raw)
        except (ValueError, TypeError):
            note(tr("app.url_ignored", name=key))
        else:
            if (
                isinstance(parsed, int | float)
                and not isinstance(parsed, bool)
                and str(parsed) != raw
            ):
                note(tr("app.url_clamped", name=key, value=parsed))
            state[key] = value = parsed
    own().setdefault(BOUND, {})[key] = (default, default if value is _UNSET else value)
    return value is not _UNSET


_UNSET = object()


def as_drawn(key: str, value: T) -> T:
    """``value``, the one the widget of ``key`` was drawn with, kept for the share link.
    Not always the one ``from_url`` found: a value left under ``key`` by another page's
    widget (another widget id) is not handed to this page's widget, which shows its own
    default then, and the link must name what the page shows."""
    bound = own().setdefault(BOUND, {})
    bound[key] = (bound[key][0], value)
    return value


def in_url(key: str) -> bool:
    """Whether the page's link sets ``key``, plain (``?key=``) or packed (``?key.z=``)."""
    return key in st.query_params or key + PACKED in st.query_params


def url_value(key: str) -> str:
    """``key``'s value in the page's link: as written, or unpacked (ui/url_pack.py); a
    packed value that is no packed text is a ValueError. A plain value wins over a packed
    one, as :func:`ui.url_pack.unpack` reads a link."""
    if key in st.query_params:
        return st.query_params[key]
    return unpack_value(st.query_params[key + PACKED])


def number_in(value: object, kind: type, lo: float, hi: float) -> bool:
    """Whether a value kept in the session is a ``kind`` in [lo, hi] (a bool is no number)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return (kind is float or isinstance(value, int)) and lo <= value <= hi


def clamp(kind: type, lo: float, hi: float) -> Callable[[str], float]:
    """A parser of a link's number: a finite ``kind``, clamped into [lo, hi]."""

    def parse(raw: str) -> float:
        value = kind(raw)
        if not math.isfinite(value):
            raise ValueError(raw)
        return min(max(value, lo), hi)

    return parse


def choice(options: Sequence[str]) -> Callable[[str], str]:
    """A parser of a link's name: one of ``options``, as it is."""

    def parse(raw: str) -> str:
        if raw not in options:
            raise ValueError(raw)
        return raw

    return parse


BOOLS = {"true": True, "1": True, "false": False, "0": False}  # what a link may write


def as_bool(raw: str) -> bool:
    """A link's toggle: true/1 or false/0, in any case."""
    if raw.lower() not in BOOLS:
        raise ValueError(raw)
    return BOOLS[raw.lower()]
