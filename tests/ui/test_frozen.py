"""ui.frozen: a result the cache shares between sessions refuses every write (an array's
element, a list's append, a dict's entry, a table's cell or column, a dataclass's field,
an object's attribute) and shares its memory, not a copy."""

from dataclasses import FrozenInstanceError, dataclass

import numpy as np
import pandas as pd
import pytest

import ui
from attnviz.lessons import multihead
from ui.frozen import Frozen


class Plain:
    def __init__(self) -> None:
        self.count = 0
        self.rows = np.zeros(3)


@dataclass(frozen=True)
class Cfg:
    n: int


@dataclass(frozen=True)
class Result:
    weights: np.ndarray
    tokens: list[str]
    by_name: dict[str, np.ndarray]
    table: pd.DataFrame
    plain: Plain
    nested: list[list[float]]


ARRAY = np.arange(6.0).reshape(2, 3)


def run(cfg: Cfg) -> Result:
    table = pd.DataFrame({"a": [1.0, 2.0], "b": ["x", "y"]})
    return Result(ARRAY, ["a", "b"], {"q": np.ones(2)}, table, Plain(), [[1.0], [2.0]])


WRITES = {
    "array element": lambda r: r.weights.__setitem__((0, 0), 9.0),
    "array in place": lambda r: np.add(r.weights, 1, out=r.weights),
    "list append": lambda r: r.tokens.append("c"),
    "list item": lambda r: r.tokens.__setitem__(0, "z"),
    "nested list": lambda r: r.nested[0].append(3.0),
    "dict set": lambda r: r.by_name.__setitem__("k", 1),
    "dict update": lambda r: r.by_name.update(k=1),
    "array in a dict": lambda r: r.by_name["q"].__setitem__(0, 5.0),
    "table cell": lambda r: r.table.loc.__setitem__((0, "a"), 5.0),
    "table iat": lambda r: r.table.iat.__setitem__((0, 0), 5.0),
    "table column": lambda r: r.table.__setitem__("c", 1),
    "table in place": lambda r: r.table.fillna(0, inplace=True),
    "dataclass field": lambda r: setattr(r, "tokens", []),
    "object attribute": lambda r: setattr(r.plain, "count", 1),
    "array of an object": lambda r: r.plain.rows.__setitem__(0, 1.0),
}


@pytest.mark.parametrize("write", WRITES, ids=list(WRITES))
def test_a_write_into_a_shared_result_raises(write):
    r = ui.compute(run, Cfg(1))
    with pytest.raises((Frozen, ValueError, AttributeError, TypeError, FrozenInstanceError)):
        WRITES[write](r)
    assert ui.compute(run, Cfg(1)) is r  # every session gets this very object, unchanged
    assert r.weights[0, 0] == 0.0 and r.tokens == ("a", "b") and dict(r.by_name).keys() == {"q"}
    assert r.table.shape == (2, 2) and r.plain.count == 0


def test_a_shared_result_reads_as_before_and_shares_its_memory():
    r = ui.compute(run, Cfg(2))
    assert r.weights is ARRAY  # frozen in place: no copy
    assert isinstance(r.by_name, dict) and isinstance(r.table, pd.DataFrame)
    assert r.table.loc[1, "a"] == 2.0 and r.table.reset_index().shape == (2, 3)
    assert isinstance(r.plain, Plain) and r.plain.rows.sum() == 0
    copy = r.table.copy()
    copy["c"] = 1  # what a page derives is its own to change
    assert "c" not in r.table


def test_the_multihead_lessons_result_is_read_only_where_shared():
    r = ui.compute(multihead.run, multihead.Config("the cat sat", D=16, H=2))
    for name in ("scores", "weights", "norms", "entropy", "max_weight"):
        with pytest.raises(ValueError, match="read-only"):
            getattr(r, name)[0] = 0.0
    with pytest.raises(AttributeError):
        r.formulas.append("x")
    with pytest.raises(Frozen):
        r.pipeline["step"] = ""
