"""App-side helpers shared by every page: language, presentation mode, URL-bound
widgets, charts with PNG export, CSV downloads and the share link.

Every widget made here is bound to the URL (``bind="query-params"``) under its
key, so a link reopens the same view; the engine's caps bound every slider.
"""

from __future__ import annotations

import gc
import math
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from urllib.parse import urlencode

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from attnviz.i18n import LANGS, t

__all__ = ["LANGS", "t"]

_BOUND = "_url_keys"  # session key: {widget key: default} of this run, for the URL
_NOTES = "_url_notes"  # session key: placeholder for notices about URL values
_OPTIONS = "_url_options"  # session key: {select key: its options}, for tests that sweep them
_LANG = ContextVar("lang", default=None)  # pins the language while a label is formatted


@st.cache_resource
def warm_up() -> bool:
    """Once per process: pay Plotly's first-figure set-up, then freeze the heap.

    Streamlit runs a full ``gc.collect`` after every script run; freezing the
    objects alive after start-up (torch, plotly, pandas) keeps that pass short.
    """
    go.Figure(go.Heatmap(z=[[0.0]])).to_json()
    gc.collect()
    gc.freeze()
    return True


def lang() -> str:
    """The current language, ``ja`` or ``en``."""
    value = _LANG.get() or st.session_state.get("lang")
    return value if value in LANGS else _browser_lang()


def _browser_lang() -> str:
    return "ja" if (st.context.locale or "").lower().startswith("ja") else "en"


def tr(key: str, **fields: object) -> str:
    """``key`` from the catalogue in the current language."""
    return t(key, lang(), **fields)


def presenting() -> bool:
    """True in presentation mode (projector): larger type and figures."""
    return bool(st.session_state.get("present", False))


def begin_page() -> None:
    """Start a run (from app.py): forget the last run's URL keys; make room for URL notices."""
    st.session_state[_BOUND] = {}
    st.session_state[_NOTES] = st.container()


def _from_url(
    key: str, default: object, parse: Callable[[str], object], valid: Callable[[object], bool]
) -> bool:
    """Seed ``st.session_state[key]`` from ``?key=`` on first sight; True if a value is set.

    ``parse`` turns the URL text into a valid value (clamping where sensible) or raises
    ValueError; a rejected value is dropped with a translated notice. A value left under
    the same key by another page's widget that is not ``valid`` here is forgotten.
    """
    st.session_state.setdefault(_BOUND, {})[key] = default
    if key in st.session_state and not valid(st.session_state[key]):
        del st.session_state[key]
    if key not in st.session_state and key in st.query_params:
        raw = st.query_params[key]
        try:
            value = parse(raw)
        except (ValueError, TypeError):
            _note(tr("app.url_ignored", name=key))
        else:
            if isinstance(value, int | float) and not isinstance(value, bool) and str(value) != raw:
                _note(tr("app.url_clamped", name=key, value=value))
            st.session_state[key] = value
    return key in st.session_state


def _note(message: str) -> None:
    notes = st.session_state.get(_NOTES)
    (notes or st).warning(message)


def _number_in(value: object, kind: type, lo: float, hi: float) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return (kind is float or isinstance(value, int)) and lo <= value <= hi


def _clamp_int(lo: int, hi: int) -> Callable[[str], int]:
    return lambda raw: min(max(int(raw), lo), hi)


def _clamp_float(lo: float, hi: float) -> Callable[[str], float]:
    def parse(raw: str) -> float:
        value = float(raw)
        if not math.isfinite(value):
            raise ValueError(raw)
        return min(max(value, lo), hi)

    return parse


def _choice(options: Sequence[str]) -> Callable[[str], str]:
    def parse(raw: str) -> str:
        if raw not in options:
            raise ValueError(raw)
        return raw

    return parse


def _bool(raw: str) -> bool:
    if raw.lower() not in ("true", "false"):
        raise ValueError(raw)
    return raw.lower() == "true"


def slider(
    key: str,
    label: str,
    lo: int | float,
    hi: int | float,
    default: int | float,
    where=st,
    **options,
) -> int | float:
    """A slider in [lo, hi], kept in ``?key=`` (URL values outside are clamped)."""
    kind = int if isinstance(default, int) else float
    parse = _clamp_int(lo, hi) if kind is int else _clamp_float(lo, hi)
    if _from_url(key, default, parse, lambda v: _number_in(v, kind, lo, hi)):
        return where.slider(label, lo, hi, key=key, **options)
    return where.slider(label, lo, hi, default, key=key, **options)


def select(
    key: str,
    label: str,
    options: Sequence[str],
    default: str,
    fmt: Callable[[str], str] | None = None,
    where=st,
    radio: bool = False,
    **kw,
) -> str:
    """A selectbox (or horizontal radio) over internal names, shown translated by ``fmt``.

    The URL holds the internal name, so a link works in either language.
    """
    options = list(options)
    st.session_state.setdefault(_OPTIONS, {})[key] = options
    widget = where.radio if radio else where.selectbox
    fmt = _pinned(fmt or str, lang())
    if radio:
        kw.setdefault("horizontal", True)
    if not _from_url(key, default, _choice(options), lambda v: v in options):
        kw["index"] = options.index(default)
    return widget(label, options, format_func=fmt, key=key, **kw)


def _pinned(fmt: Callable[[str], str], language: str) -> Callable[[str], str]:
    """``fmt`` that always formats in ``language``, even when called outside a script run."""

    def label(option: str) -> str:
        token = _LANG.set(language)
        try:
            return fmt(option)
        finally:
            _LANG.reset(token)

    return label


def choice_slider(
    key: str, label: str, options: Sequence[str], default: str, where=st, **kw
) -> str:
    """A slider over a few named stops (powers of two, say), kept in ``?key=`` by name."""
    options = list(options)
    if not _from_url(key, default, _choice(options), lambda v: v in options):
        kw["value"] = default
    return where.select_slider(label, options, key=key, **kw)


def toggle(key: str, label: str, default: bool = False, where=st, **kw) -> bool:
    """A toggle kept in ``?key=true|false``."""
    if not _from_url(key, default, _bool, lambda v: isinstance(v, bool)):
        kw["value"] = default
    return where.toggle(label, key=key, **kw)


def number(key: str, label: str, lo: int, hi: int, default: int, where=st, **kw) -> int:
    """An integer input in [lo, hi] kept in ``?key=`` (clamped)."""
    if not _from_url(key, default, _clamp_int(lo, hi), lambda v: _number_in(v, int, lo, hi)):
        kw["value"] = default
    return where.number_input(label, lo, hi, step=1, key=key, **kw)


def text(key: str, label: str, default: str, max_chars: int, where=st, **kw) -> str:
    """A text input capped at ``max_chars``; a longer URL value is cut, with a notice."""

    def parse(raw: str) -> str:
        if len(raw) > max_chars:
            _note(tr("app.text_cut", n=max_chars))
        return raw[:max_chars]

    if not _from_url(key, default, parse, lambda v: isinstance(v, str)):
        kw["value"] = default
    return where.text_input(label, max_chars=max_chars, key=key, **kw)


def plot(fig: go.Figure, key: str, name: str) -> None:
    """Draw a Plotly figure; its toolbar keeps the PNG download, named ``name``."""
    if presenting():
        fig.update_layout(font_size=20)
    config = {
        "displaylogo": False,
        "toImageButtonOptions": {"format": "png", "filename": name, "scale": 2},
    }
    st.plotly_chart(fig, key=key, config=config, theme=None)


def csv_button(
    table: pd.DataFrame | Callable[[], pd.DataFrame], name: str, key: str, where=st
) -> None:
    """A CSV download (UTF-8 with BOM, so spreadsheet apps read Japanese).

    The file is made only when the button is clicked; pass a function to defer
    building a large table as well.
    """

    def data() -> bytes:
        df = table() if callable(table) else table
        return df.to_csv().encode("utf-8-sig")

    where.download_button(
        tr("app.download_csv", name=name),
        data,
        file_name=f"{name}.csv",
        mime="text/csv",
        key=key,
        on_click="ignore",
    )


def share_link() -> None:
    """Write every control that differs from its default into the URL (language always),
    and show that link in a box with a copy button."""
    bound = st.session_state.get(_BOUND, {})
    params = {
        k: st.session_state[k]
        for k, default in bound.items()
        if k in st.session_state and (k == "lang" or st.session_state[k] != default)
    }
    params = {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in params.items()}
    st.query_params.from_dict(params)
    with st.sidebar:
        st.caption(tr("app.share_link"))
        st.code(f"{st.context.url or ''}?{urlencode(params)}", language=None, wrap_lines=True)


def error_box(err: ValueError) -> None:
    """Show an engine ``ValueError`` as a translated, friendly message (no traceback)."""
    st.error(tr("app.invalid", detail=str(err)))
