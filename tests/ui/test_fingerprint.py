"""ui.fingerprint: a shared drawing's key holds every value its build reads (closure cells,
defaults, globals loaded by the build and by the code nested in it), so a build reading a
value that changed is built again; what no key can stand for is not shared."""

import importlib
import threading
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pytest

import ui
from ui.fingerprint import Unkeyable, fingerprint
from ui.keys import own

drawn_module = importlib.import_module("ui.drawn")
keys = importlib.import_module("ui.fingerprint")


@pytest.fixture
def fresh(monkeypatch):
    """An empty drawing cache, English, not presenting."""
    monkeypatch.setattr(drawn_module, "_drawn", type(drawn_module._drawn)())
    monkeypatch.setattr(drawn_module, "_held", [0])
    monkeypatch.setattr(drawn_module, "lang", lambda: "en")
    monkeypatch.setattr(drawn_module, "presenting", lambda: False)


def page_script(source: str, **values: object) -> dict:
    """A page's namespace: its top-level variables are the globals its lambdas read."""
    space = dict(values)
    exec(compile(source, "pages/some/page.py", "exec"), space)
    return space


def closure(x: object):
    return lambda: ("drawn for", x)


def nested(x: object):
    def inner():
        return ("drawn for", x)

    return lambda: inner()


def default(x: object):
    return lambda x=x: ("drawn for", x)


PAGE = "build = lambda: ('drawn for', D)"
NESTED_PAGE = "def build():\n    inner = lambda: ('drawn for', D)\n    return inner()"


def global_read(x: object):
    return page_script(PAGE, D=x)["build"]


def nested_global_read(x: object):
    return page_script(NESTED_PAGE, D=x)["build"]


WAYS = [closure, nested, default, global_read, nested_global_read]


def assert_each_value_drawn_for_itself(make) -> None:
    """The check: builds written in one place, reading 1, then 2, then 1 again, each draw
    what they read, as two students asking one after the other would see it."""
    for x in (1, 2, 1, np.arange(3), np.arange(3) + 1, [1, 2], [1, 3], {"a": 1}, {"a": 2}):
        got = drawn_module.drawn(make(x))
        assert got[1] is x or np.array_equal(got[1], x), f"asked for {x!r}, drawn for {got[1]!r}"


@pytest.mark.parametrize("make", WAYS, ids=lambda m: m.__name__)
def test_a_build_reading_a_value_that_changed_is_built_again(fresh, make):
    assert fingerprint(make(1)) == fingerprint(make(1))
    assert fingerprint(make(1)) != fingerprint(make(2))
    assert_each_value_drawn_for_itself(make)


@pytest.mark.parametrize("make", WAYS, ids=lambda m: m.__name__)
def test_a_key_that_drops_a_read_value_is_caught(fresh, monkeypatch, make):
    """The check above fails on a deliberately broken key: here the fingerprint of each
    function forgets its last read value (a cell, a default or a global)."""
    real = keys._function

    def forgetful(fn, seen):
        found = real(fn, seen)
        if found[0] == "function" and len(found) == 4 and found[3]:
            return (*found[:3], found[3][:-1])
        return found

    monkeypatch.setattr(keys, "_function", forgetful)
    with pytest.raises(AssertionError, match="drawn for"):
        assert_each_value_drawn_for_itself(make)


@dataclass(frozen=True)
class Cfg:
    n: int
    name: str = "x"


def square(cfg: Cfg) -> np.ndarray:
    return np.arange(4 * cfg.n).reshape(2, 2 * cfg.n)


def test_values_key_by_value_and_results_by_their_computation():
    assert fingerprint(Cfg(1)) == fingerprint(Cfg(1)) != fingerprint(Cfg(2))
    assert fingerprint(1) != fingerprint(1.0) != fingerprint(True)
    assert fingerprint(np.zeros(3)) != fingerprint(np.zeros(3, np.float32))
    assert fingerprint(np.zeros(3)) != fingerprint(np.zeros((3, 1)))
    table = pd.DataFrame({"a": [1.0, 2.0]}, index=pd.Index(["x", "y"], name="t"))
    assert fingerprint(table) == fingerprint(table.copy()) != fingerprint(table * 2)
    assert fingerprint(table.index) != fingerprint(table.rename_axis("u").index)
    r = ui.compute(square, Cfg(5))
    assert fingerprint(r) == (square, Cfg(5))  # (run, config): no byte hashed
    assert fingerprint(np.arange(20).reshape(2, 10)) != fingerprint(r)  # by bytes
    # a view of a shared array: as the array and where it lies in it, without its bytes
    assert fingerprint(r[1]) == fingerprint(r[1]) != fingerprint(r[0])
    assert fingerprint(r[:, 1:]) != fingerprint(r[:, :-1]) != fingerprint(r[:, ::2])
    assert fingerprint(r[1])[0] == "view"


def test_what_no_key_stands_for_is_built_unshared_and_raises_in_the_suite(fresh, monkeypatch):
    lock = threading.Lock()
    with pytest.raises(Unkeyable):
        fingerprint(lock)
    with pytest.raises(Unkeyable, match="session_state"):
        fingerprint(lambda: ui.st.session_state.get("x"))
    with pytest.raises(Unkeyable, match="own"):  # the app's own state (ui.keys.own)
        fingerprint(lambda: own().get("x"))
    with pytest.raises(Unkeyable, match="own"):
        fingerprint(lambda: ui.keys.own().get("x"))
    assert keys.STRICT  # tests/conftest.py
    with pytest.raises(Unkeyable):
        drawn_module.drawn(lambda: ("drawn with", lock))
    monkeypatch.setattr(keys, "STRICT", False)
    built = [drawn_module.drawn(lambda: ["drawn with", lock]) for _ in range(2)]
    assert built[0] == built[1] and built[0] is not built[1]  # built each time


def test_a_function_reading_itself_has_a_key():
    space = page_script("def f(n):\n    return 1 if n < 1 else f(n - 1)")
    assert fingerprint(space["f"]) == fingerprint(space["f"])
