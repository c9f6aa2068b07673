"""Results nobody can alter: :func:`freeze` makes a result read-only in place before the
result cache (ui.compute) shares it between sessions.

Arrays are made read-only in place (nothing copied), and the arrays they view with them;
lists become tuples, sets frozensets, dicts :class:`FrozenDict` (a dict that refuses
writes, so that JSON and pandas still take it); a table refuses writes to its cells and
columns; a dataclass or any other object of this app's refuses new values for its fields.
A torch tensor cannot be made read-only, nor can an object of a class ``freeze`` does not
know: a shared result holding one is an error in the test suite (``STRICT``) and a
warning in the log. Each part is registered (ui.fingerprint) under the result's key and
its path inside it, so that a drawing reading it keys as the computation that made it: a
lesson's ``run(cfg)`` is deterministic, so a path names the same value in a result
computed again.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable
from types import FunctionType, ModuleType

import numpy as np
import pandas as pd
import torch

from . import fingerprint
from .fingerprint import register
from .internals import server_log

_OURS = ("attnviz.", "ui.", "pages.", "tests.")  # the modules of classes freeze knows
_LEAVES = (str, int, float, bool, complex, bytes, type(None), FunctionType, ModuleType, type)


log = server_log(__name__)


class Frozen(TypeError):
    """A write into a result shared between sessions."""


def _refuse(self, *args, **kwargs):
    raise Frozen(f"a shared {type(self).__name__} is read-only: copy it to change it")


class FrozenDict(dict):
    """A dict whose entries cannot change."""

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> tuple:  # unpickled as built, not entry by entry
        return FrozenDict, (dict(self),)


class _ReadOnly:
    """An indexer (``loc``, ``iloc``, ``at``, ``iat``) that reads and refuses writes."""

    def __init__(self, indexer: object) -> None:
        self._indexer = indexer

    def __getitem__(self, key: object) -> object:
        return self._indexer[key]

    __setitem__ = _refuse


def _read_only(name: str) -> property:
    return property(lambda self: _ReadOnly(getattr(super(type(self), self), name)))


class FrozenFrame(pd.DataFrame):
    """A table whose cells and columns cannot be set, nor changed in place; what pandas
    derives from it (a copy, a selection) is a plain DataFrame."""

    __setitem__ = __delitem__ = __setattr__ = insert = pop = _refuse
    loc, iloc, at, iat = (_read_only(n) for n in ("loc", "iloc", "at", "iat"))


class FrozenSeries(pd.Series):
    """A series whose values cannot be set, nor changed in place."""

    __setitem__ = __delitem__ = __setattr__ = pop = _refuse
    loc, iloc, at, iat = (_read_only(n) for n in ("loc", "iloc", "at", "iat"))


_frozen_classes: dict[type, type] = {}


def _frozen_class(cls: type) -> type:
    """``cls`` with attribute assignment refused: an object's class becomes this."""
    if cls not in _frozen_classes:
        body = {"__setattr__": _refuse, "__delattr__": _refuse, "__module__": cls.__module__}
        _frozen_classes[cls] = type(cls.__name__, (cls,), body)
    return _frozen_classes[cls]


def freeze(value: object, key: Hashable, held: list[object] | None = None) -> object:
    """``value`` made read-only in place (a list or set: its frozen copy), each part
    registered under ``(key, path)``; ``held`` collects what was registered."""
    return _freeze(value, key, held if held is not None else [])


def _freeze(value: object, key: Hashable, held: list[object]) -> object:
    if isinstance(value, _LEAVES):
        return value
    if isinstance(value, np.ndarray):
        value.flags.writeable = False
        if isinstance(value.base, np.ndarray):  # the memory it views: read-only too
            _freeze(value.base, (key, "base"), held)
    elif isinstance(value, torch.Tensor):
        return _unfrozen(value, key, "a torch tensor: return a numpy array")
    elif isinstance(value, list | tuple):
        parts = tuple(_freeze(v, (key, k), held) for k, v in enumerate(value))
        if type(value) is list or any(p is not v for p, v in zip(parts, value, strict=True)):
            value = parts if type(value) in (list, tuple) else type(value)(*parts)
    elif isinstance(value, set | frozenset):  # its items hashable, keyed by their values
        value = frozenset(value)
    elif isinstance(value, dict):
        value = FrozenDict({k: _freeze(v, (key, k), held) for k, v in value.items()})
    elif isinstance(value, pd.DataFrame | pd.Series):
        frozen = FrozenFrame if isinstance(value, pd.DataFrame) else FrozenSeries
        object.__setattr__(value, "__class__", frozen)
    elif dataclasses.is_dataclass(value) or type(value).__module__.startswith(_OURS):
        names = (
            [f.name for f in dataclasses.fields(value)]
            if dataclasses.is_dataclass(value)
            else list(vars(value))
        )
        for name in names:
            part = getattr(value, name)
            frozen = _freeze(part, (key, name), held)
            if frozen is not part:
                object.__setattr__(value, name, frozen)
        params = getattr(type(value), "__dataclass_params__", None)
        if not (params and params.frozen):
            object.__setattr__(value, "__class__", _frozen_class(type(value)))
    else:
        return _unfrozen(value, key, f"a {type(value).__qualname__}, which nothing freezes")
    register(value, key)
    held.append(value)
    return value


def _unfrozen(value: object, key: Hashable, what: str) -> object:
    """``value`` as it is, neither frozen nor registered; an error in the test suite."""
    if fingerprint.STRICT:
        raise Frozen(f"{key}: a shared result holds {what}")
    log.warning("shared unfrozen, %s: %s", key, what)
    return value
