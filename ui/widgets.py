"""Widgets whose values live in the URL (``?key=value``), so a link reopens the same view.

Streamlit's own ``bind="query-params"`` writes a select's *translated* label into the
URL, which would break a link when the language changes; here the URL holds internal
names, numbers out of range are clamped and unknown values dropped, each with a notice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import streamlit as st

from attnviz.i18n import t
from attnviz.positional import KINDS, MODES
from attnviz.text import first_tokens

from .keys import EXAMPLES, OPTIONS, RELABEL, SELECT_KINDS, SELECT_LABELS, TEXT_CUT, own
from .language import lang, tr
from .messages import note
from .page_run import CUT_ICON
from .url_values import as_bool, as_drawn, choice, clamp, from_url, number_in


def slider(
    key: str,
    label: str,
    lo: int | float,
    hi: int | float,
    default: int | float,
    where=st,
    **options,
) -> int | float:
    """A slider in [lo, hi], kept in ``?key=`` (URL values outside are clamped); none where
    ``lo`` is the only value (a sentence of one token has one row), ``lo`` then."""
    kind = int if isinstance(default, int) else float
    if hi <= lo:  # Streamlit refuses a slider without a range
        return kind(lo)
    if from_url(key, default, clamp(kind, lo, hi), lambda v: number_in(v, kind, lo, hi)):
        return as_drawn(key, where.slider(label, lo, hi, key=key, **options))
    return as_drawn(key, where.slider(label, lo, hi, default, key=key, **options))


def kept_int(key: str, lo: int, hi: int, default: int) -> int:
    """An integer in [lo, hi] that something other than a widget sets (a click on a map),
    kept in ``?key=`` as a control's value is: clamped from the URL, and forgotten (back to
    ``default``) when it no longer lies in the range."""
    if from_url(key, default, clamp(int, lo, hi), lambda v: number_in(v, int, lo, hi)):
        return st.session_state[key]
    st.session_state[key] = default
    return default


def spec_labels(specs: Mapping[str, object], attr: str = "label") -> Callable[[str], str]:
    """Each choice of ``specs`` (a score, LN placement, PE kind or mode by name) under the
    name its spec gives in ``attr``, translated in this run's language."""
    return {name: tr(getattr(spec, attr)) for name, spec in specs.items()}.get


def select(
    key: str,
    label: str,
    options: Sequence[str],
    default: str,
    labels: str | Callable[[str], str] = str,
    where=st,
    radio: bool = False,
    **kw,
) -> str:
    """A selectbox (or horizontal radio) over internal names, kept in ``?key=`` by name.

    ``labels`` is a catalogue prefix (option ``o`` shows as ``tr(labels + o)``, in the
    language of this run even when formatted later) or a function of the option.
    """
    options = list(options)
    own().setdefault(OPTIONS, {})[key] = options
    if isinstance(labels, str):
        prefix, language = labels, lang()
        labels = lambda option: t(prefix + option, language)  # noqa: E731
    if radio:
        kw.setdefault("horizontal", True)
    kinds = own().setdefault(SELECT_KINDS, {})
    changed = kinds.get(key, radio) != radio  # a radio now, a select box before, or back
    kinds[key] = radio
    shown = tuple(labels(o) for o in options)
    last = own().setdefault(SELECT_LABELS, {})
    relabelled = last.get(key, shown) != shown  # the tour's list marks a stop answered: ✓
    last[key] = shown
    if (own().get(RELABEL) or changed or relabelled) and key in st.session_state:
        # the browser holds the choice by its label, and a widget of the other kind is a
        # new widget: set it again so that it is shown (and stays chosen) under its new
        # label (the new language's, or an option's new mark), in the new widget
        st.session_state[key] = st.session_state[key]
    if not from_url(key, default, choice(options), lambda v: v in options):
        kw["index"] = options.index(default)
    widget = where.radio if radio else where.selectbox
    return as_drawn(key, widget(label, options, format_func=labels, key=key, **kw))


def positions(page: str, default: str) -> tuple[str, str]:
    """The positional encoding and how it enters (added or concatenated), labelled by the
    page's ``<page>.pe`` and ``<page>.pe_mode``; without positions the second is disabled
    (it would change nothing)."""
    pe = select("pe", tr(f"{page}.pe"), KINDS, default, labels=spec_labels(KINDS))
    mode = select(
        "pe_mode",
        tr(f"{page}.pe_mode"),
        MODES,
        "add",
        labels=spec_labels(MODES),
        radio=True,
        disabled=not KINDS[pe].present,
    )
    return pe, mode


def choice_slider(
    key: str, label: str, options: Sequence[str], default: str, where=st, **kw
) -> str:
    """A slider over a few named stops (powers of two, say), kept in ``?key=`` by name."""
    options = list(options)
    own().setdefault(OPTIONS, {})[key] = options
    if not from_url(key, default, choice(options), lambda v: v in options):
        kw["value"] = default
    return as_drawn(key, where.select_slider(label, options, key=key, **kw))


def toggle(key: str, label: str, default: bool = False, where=st, **kw) -> bool:
    """A toggle kept in ``?key=true|false``."""
    if not from_url(key, default, as_bool, lambda v: isinstance(v, bool)):
        kw["value"] = default
    return as_drawn(key, where.toggle(label, key=key, **kw))


def number(key: str, label: str, lo: int, hi: int, default: int, where=st, **kw) -> int:
    """An integer input in [lo, hi] kept in ``?key=`` (clamped)."""
    if not from_url(key, default, clamp(int, lo, hi), lambda v: number_in(v, int, lo, hi)):
        kw["value"] = default
    return as_drawn(key, where.number_input(label, lo, hi, step=1, key=key, **kw))


def text(
    key: str,
    label: str,
    default: str,
    max_chars: int,
    where=st,
    *,
    max_tokens: int | None = None,
    **kw,
) -> str:
    """A text input capped at ``max_chars``: a longer text, typed, pasted or from the URL,
    is cut, with a notice under the input (the input's own cap dropped a longer paste
    whole, silently keeping the text before it). ``max_tokens``: a text of more tokens is
    used up to its last token that fits, with a notice (the real model cuts to its 512
    alike); the input keeps the whole text. ``default`` is an example in the reader's
    language: left unedited, it is replaced by the other language's when the language
    changes."""

    def parse(raw: str) -> str:
        if len(raw) > max_chars:
            note(tr("app.text_cut", n=max_chars))
        return raw[:max_chars]

    def cut() -> None:  # before the run: the input shows the text cut
        if len(st.session_state[key]) > max_chars:
            st.session_state[key] = st.session_state[key][:max_chars]
            own()[TEXT_CUT] = key

    examples = own().setdefault(EXAMPLES, {})
    if own().get(RELABEL) and st.session_state.get(key) == examples.get(key):
        st.session_state[key] = default  # an example left as it was follows the language
    examples[key] = default
    if not from_url(key, default, parse, lambda v: isinstance(v, str)):
        kw["value"] = default
    value = as_drawn(key, where.text_input(label, key=key, on_change=cut, **kw))
    if own().get(TEXT_CUT) == key:
        del own()[TEXT_CUT]
        where.warning(tr("app.text_cut", n=max_chars), icon=CUT_ICON)  # told once
    if max_tokens is None:
        return value
    try:
        start, n = first_tokens(value, max_tokens)
    except ValueError:  # no text, or too long: the page's engine says so
        return value
    if n > max_tokens:
        where.warning(tr("app.text_tokens_cut", n=n, hi=max_tokens))
    return start
