"""What a shared drawing reads, reduced to a key (ui.drawn).

:func:`fingerprint` maps a value to a hashable key equal for equal values: primitives by
value; tuples, lists, dicts and dataclasses by their parts; arrays, tensors and tables by
shape, type and a digest of their bytes; modules, classes and functions importable by name
by that name; an object whose instance holds no state by its class; any other function
(a lambda, a closure, a page's own function) by its code and the fingerprints of what it
reads: its closure cells, its defaults and the globals its code and the code nested in it
load by name (a page script's top-level variables are its functions' globals). Which
globals a code object loads is found once per code object. A value the result cache
handed out (ui.compute) is registered, with every part of it, and keys as the computation
that made it: (run, config, path), with no bytes hashed, and a view of a registered array
keys as that array and where the view lies in it.
A value with none of these forms, or a build that reads the session's state (ui.keys'
``own()`` included), raises :class:`Unkeyable`; ui.drawn then builds it unshared, or
raises where ``STRICT`` (tests).

A function importable by name is keyed by that name alone, not by the module state it
reads: state of an imported module is the process's, the same for every session.
"""

from __future__ import annotations

import dataclasses
import dis
import enum
import functools
import hashlib
import os
import sys
import threading
from collections.abc import Callable, Hashable
from types import BuiltinFunctionType, CodeType, FunctionType, MethodType, ModuleType

import numpy as np
import pandas as pd
import torch

# an unkeyable read raises instead of drawing unshared: set for the test suite (conftest)
STRICT = os.environ.get("ATTNVIZ_STRICT_KEYS") == "1"
# names whose load makes a build read the session: no key can hold what they return (own:
# ui.keys.own, the app's own state, one entry of session_state)
SESSION_NAMES = frozenset({"session_state", "query_params", "own"})


class Unkeyable(TypeError):
    """A value read by a shared drawing that no key can stand for."""


_registered: dict[int, tuple[object, Hashable]] = {}  # id → (the object, its key)
_reg_lock = threading.Lock()
_globals_read: dict[CodeType, tuple[str, ...]] = {}  # code → the global names it loads


def register(value: object, key: Hashable) -> None:
    """Let ``value`` key as ``key`` while it is registered (a first registration stays)."""
    with _reg_lock:
        _registered.setdefault(id(value), (value, key))


def forget(value: object) -> None:
    """Let ``value`` key by its contents again."""
    with _reg_lock:
        if _registered.get(id(value), (None,))[0] is value:
            del _registered[id(value)]


def shared(value: object) -> bool:
    """Whether ``value`` is registered: a shared result, a part of one, or a drawn value."""
    return _registered.get(id(value), (None,))[0] is value


def globals_read(code: CodeType) -> tuple[str, ...]:
    """The global names ``code`` and the code objects nested in it load, once per code."""
    names = _globals_read.get(code)
    if names is None:
        found: set[str] = set()
        for ins in dis.get_instructions(code):
            if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME") and ins.argval in SESSION_NAMES:
                found.add(f"<session>.{ins.argval}")
            elif ins.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
                found.add(ins.argval)
            elif ins.opname in ("LOAD_ATTR", "LOAD_METHOD") and ins.argval in SESSION_NAMES:
                found.add(f"<session>.{ins.argval}")
        for const in code.co_consts:
            if isinstance(const, CodeType):
                found.update(globals_read(const))
        names = _globals_read[code] = tuple(sorted(found))
    return names


_SCALARS = (int, float, bool, complex, bytes)


def fingerprint(value: object, _seen: frozenset[int] = frozenset()) -> Hashable:
    """A hashable key for ``value``: equal for equal values, different where they differ."""
    cls = type(value)
    if cls is str or value is None:
        return value
    if cls in _SCALARS:
        return cls, value
    found = _registered.get(id(value))
    if found is not None and found[0] is value:
        return found[1]
    if cls is tuple or cls is list or isinstance(value, tuple | list):
        if all(type(v) is str for v in value):
            return cls, tuple(value)
        return cls, tuple(fingerprint(v, _seen) for v in value)
    if isinstance(value, dict):
        return cls, tuple((fingerprint(k, _seen), fingerprint(v, _seen)) for k, v in value.items())
    if isinstance(value, FunctionType):
        return _function(value, _seen)
    if isinstance(value, np.ndarray):
        base = value.base
        if base is not None and _registered.get(id(base), (None,))[0] is base:
            return (
                "view",
                _registered[id(base)][1],
                _at(value) - _at(base),
                value.strides,
                (
                    value.shape,
                    value.dtype.str,
                ),
            )
        if value.dtype.hasobject:
            return "array", value.shape, fingerprint(value.tolist(), _seen)
        return "array", value.shape, value.dtype.str, _digest(value)
    if isinstance(value, np.generic):
        return cls, value.item()
    if isinstance(value, torch.Tensor):
        flat = value.detach().cpu().contiguous()
        return "tensor", tuple(flat.shape), str(flat.dtype), _digest(flat.view(torch.uint8).numpy())
    if isinstance(value, pd.Index):
        return cls.__name__, value.name, fingerprint(value.tolist(), _seen)
    if isinstance(value, pd.DataFrame | pd.Series):
        digest = _digest(pd.util.hash_pandas_object(value, index=True).to_numpy())
        names = fingerprint(list(value.columns) if cls is not pd.Series else value.name, _seen)
        return cls.__name__, value.shape, names, digest
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        parts = (fingerprint(getattr(value, f.name), _seen) for f in dataclasses.fields(value))
        return _name(cls), tuple(parts)
    if isinstance(value, ModuleType):
        return "module", value.__name__
    if isinstance(value, type):
        return _name(value)
    if isinstance(value, enum.Enum):
        return _name(cls), value.name
    if isinstance(value, MethodType):
        return "method", _function(value.__func__, _seen), fingerprint(value.__self__, _seen)
    if isinstance(value, BuiltinFunctionType):
        owner = value.__self__
        if owner is None or isinstance(owner, ModuleType):
            return "builtin", value.__module__, value.__qualname__
        return "builtin", value.__qualname__, fingerprint(owner, _seen)
    if isinstance(value, functools.partial):
        return "partial", fingerprint((value.func, value.args, value.keywords), _seen)
    if isinstance(value, frozenset | set):
        return cls, frozenset(fingerprint(v, _seen) for v in value)
    if isinstance(value, range | slice):
        return cls, fingerprint((value.start, value.stop, value.step), _seen)
    if not getattr(value, "__dict__", True) and not hasattr(cls, "__slots__"):
        return "stateless", _name(cls)  # its instance holds nothing: its class is all of it
    raise Unkeyable(f"no key stands for a {cls.__module__}.{cls.__qualname__}")


def _function(fn: FunctionType, seen: frozenset[int]) -> Hashable:
    """A function importable by its name as that name; any other by its code and what it
    reads (a function reading itself, through a global or a cell, reads its own name)."""
    if _importable(fn):
        return "function", fn.__module__, fn.__qualname__
    code = fn.__code__
    if id(fn) in seen:
        return "cycle", code
    seen = seen | {id(fn)}
    names = globals_read(code)
    if names and names[0].startswith("<session>"):
        raise Unkeyable(f"{fn.__qualname__} reads {names[0][10:]}: the session's, not a key's")
    space = fn.__globals__
    reads = [fingerprint(space[n], seen) if n in space else n for n in names]
    for cell in fn.__closure__ or ():
        try:
            reads.append(fingerprint(cell.cell_contents, seen))
        except ValueError:  # a cell not yet filled
            reads.append("<empty>")
    if fn.__defaults__:
        reads.append(fingerprint(fn.__defaults__, seen))
    if fn.__kwdefaults__:
        reads.append(fingerprint(fn.__kwdefaults__, seen))
    return "function", code, code.co_filename, tuple(reads)


def _importable(fn: Callable) -> bool:
    """Whether ``fn`` is what its module's attribute of its qualified name holds."""
    if "<" in fn.__qualname__:  # <lambda>, <locals>
        return False
    found: object = sys.modules.get(fn.__module__)
    for part in fn.__qualname__.split("."):
        found = getattr(found, part, None)
    return found is fn


def _name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _at(array: np.ndarray) -> int:
    """The address of ``array``'s first element."""
    return array.__array_interface__["data"][0]


def _digest(array: np.ndarray) -> bytes:
    data = np.ascontiguousarray(array).view(np.uint8)
    return hashlib.sha256(data.data).digest()
