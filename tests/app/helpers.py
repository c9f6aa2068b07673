"""AppTest helpers: run a page through app.py's frame, read its figures and components back
as arrays."""

from __future__ import annotations

import base64
import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd
from PIL import Image
from streamlit.testing.v1 import AppTest

from ui import keys
from ui.export import LINE_GAP, NUMBER_TABLE
from ui.layout import METRICS
from ui.navigation import SCRIPTS

ROOT = Path(__file__).resolve().parents[2]


# the pages the app's navigation lists, by URL path (a module beside page X, X_<concern>.py,
# is none)
PAGES = SCRIPTS


def run_page(page: str, lang: str = "en", timeout: float = 120, **params: object) -> AppTest:
    """Run page ``pages/<group>/<page>.py`` inside app.py with the given URL query parameters."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout)
    at.query_params["lang"] = lang
    for key, value in params.items():
        at.query_params[key] = str(value)
    at.switch_page(PAGES[page])
    at.run()
    return at


def own(at: AppTest) -> dict:
    """The app's own state in ``at``'s session (ui.keys.own): its keys starting with "_"."""
    return at.session_state[keys.OWN]


def figures(at: AppTest) -> list[dict]:
    """Every Plotly chart on the page as its JSON document."""
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def component(at: AppTest, name: str, key: str | None = None) -> dict:
    """The payload of the page's one ``st.components.v2`` component ``name``, e.g.
    ``attnviz.heatmap`` (the enlarged map), ``attnviz.mosaic`` or ``attnviz.steps`` (a
    weight followed); with ``key``, the one of that key."""
    found = [
        el
        for el in at.get("bidi_component")
        if el.proto.component_name == name and key in (None, el.key)
    ]
    assert len(found) == 1, f"{len(found)} components {name} {key or ''}"
    return json.loads(found[0].proto.json)


def series_values(series: dict) -> np.ndarray:
    """One series of a bar chart's payload (``attnviz.charts.steps``): the float32 values
    ui/bars.js draws."""
    return np.frombuffer(base64.b64decode(series["values"]), dtype="<f4")


# each number the charts under a picked cell draw: the WeightSteps field it shows, and its
# chart, panel and series
STEP_SERIES = {
    "terms": ("terms", 0, 0),
    "s_row": ("row", 0, 0),
    "a_row": ("row", 1, 0),
    "f_row": ("sent", 0, 0),
    "a_ij_v_j": ("values", 0, 0),
    "v_j": ("values", 0, 1),
    "head_i": ("values", 0, 2),
}


def step_panels(at: AppTest, key: str = "steps") -> dict[str, dict]:
    """The panels of the weight followed (component ``attnviz.steps`` ``key``) by name:
    terms, row, sent, values; each its formulas, chart, note and CSV."""
    return {p["name"]: p for p in component(at, "attnviz.steps", key)["panels"]}


def step_charts(at: AppTest, key: str = "steps") -> dict[str, np.ndarray]:
    """The numbers of the charts of the weight followed, by the ``WeightSteps`` field each
    shows: terms, s_row, a_row, a_ij_v_j, v_j, head_i."""
    panels = step_panels(at, key)
    return {
        field: series_values(panels[chart]["chart"]["panels"][panel]["series"][series])
        for field, (chart, panel, series) in STEP_SERIES.items()
    }


def assert_step_charts(at: AppTest, steps) -> None:
    """The charts under the picked cell draw ``steps``' numbers (a ``WeightSteps``), in
    float32, with key j picked out."""
    for field, drawn in step_charts(at).items():
        want = np.asarray(getattr(steps, field), dtype=np.float64)
        np.testing.assert_allclose(drawn, want, rtol=1e-6, atol=1e-7, err_msg=field)
    assert step_panels(at)["row"]["chart"]["highlight"] == steps.j


def captions(at: AppTest) -> list[str]:
    """Every caption on the page (``st.caption``), each paragraph of one (a run of notes is
    one caption, ``ui.prose(small=True)``) and every note of a weight followed."""
    steps = [el for el in at.get("bidi_component") if el.proto.component_name == "attnviz.steps"]
    notes = []
    for el in steps:
        data = json.loads(el.proto.json)
        notes += [p["note"] for p in data["panels"] if p["note"]] + data["notes"]
    whole = [c.value for c in at.caption]
    parts = [p for c in whole if "\n\n" in c for p in c.split("\n\n")]
    return whole + parts + notes


def cell_values(payload: dict) -> np.ndarray:
    """The values of a map component's payload (``attnviz.charts.cells.cell_map``)."""
    z = np.frombuffer(base64.b64decode(payload["z"]), dtype="<f4")
    return z.reshape(payload["rows"], payload["cols"])


def map_z(at: AppTest) -> np.ndarray:
    """The values of the page's enlarged map (the ``attnviz.heatmap`` component)."""
    return cell_values(component(at, "attnviz.heatmap"))


def png_of(uri: str) -> np.ndarray:
    """A ``data:image/png;base64,…`` URI as an (h, w, 3) uint8 array."""
    return np.asarray(Image.open(io.BytesIO(base64.b64decode(uri.split(",", 1)[1]))))


def decode(array: object) -> np.ndarray:
    """A Plotly data array, base64 typed (``{dtype, bdata, shape}``) or a plain list."""
    if isinstance(array, dict) and "bdata" in array:
        out = np.frombuffer(base64.b64decode(array["bdata"]), dtype=np.dtype(array["dtype"]))
        shape = array.get("shape")
        if shape is not None:
            shape = [int(s) for s in str(shape).split(",")] if isinstance(shape, str) else shape
            out = out.reshape(shape)
        return out
    return np.asarray(array)


def pick(at: AppTest, i: int, j: int) -> AppTest:
    """What a click on the enlarged map's cell (query i, key j; from 1) leaves for the next
    run (ui.mosaic.pick_cell, which the map's callback calls)."""
    at.session_state["i"], at.session_state["j"] = i, j
    return at


def assert_clean(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def sweep_controls(at: AppTest, skip: tuple[str, ...] = ("lang",)) -> int:
    """Set every slider to its ends, every select/radio to each option, flip every toggle;
    rerun after each change and fail on any exception. Returns the number of reruns."""
    runs = 0

    def rerun() -> None:
        nonlocal runs
        at.run()
        runs += 1
        assert_clean(at)

    for kind in ("selectbox", "radio"):
        for key in [w.key for w in getattr(at, kind) if w.key and w.key not in skip]:
            if getattr(at, kind)(key=key).disabled:  # as for a student: not to be touched
                continue
            original = getattr(at, kind)(key=key).value
            for option in own(at)[keys.OPTIONS][key]:
                getattr(at, kind)(key=key).set_value(option)
                rerun()
            getattr(at, kind)(key=key).set_value(original)
            rerun()
    for key in [w.key for w in at.toggle if w.key and w.key not in skip]:
        at.toggle(key=key).set_value(not at.toggle(key=key).value)
        rerun()
        at.toggle(key=key).set_value(not at.toggle(key=key).value)
        rerun()
    for key in [w.key for w in at.slider if w.key and w.key not in skip]:
        if not at.slider(key=key):
            continue
        original = at.slider(key=key).value
        for end in (at.slider(key=key).min, at.slider(key=key).max, original):
            at.slider(key=key).set_value(end)
            rerun()
    return runs


def _elements(node):
    """The elements under ``node`` (an AppTest block), in the page's order."""
    for child in getattr(node, "children", {}).values():
        yield child
        yield from _elements(child)


DISPLAY = re.compile(r"^\$\$\n.*?\n\$\$$", re.S | re.M)  # ui.display's formulas in a text


def latex(at: AppTest) -> list[str]:
    """Every formula typeset on the page, in order, as the LaTeX it was given: an
    ``st.latex`` (a block of ``ui.formula_lines`` as its formulas), a display formula in a
    run of text (``ui.prose``) or a weight followed's."""
    begin, end, shown = r"\begin{gathered}", r"\end{gathered}", []
    for el in _elements(at.main):
        if el.type in ("latex", "markdown"):
            found = DISPLAY.findall(el.value) if el.type == "markdown" else [el.value]
            for tex in (t.removeprefix("$$\n").removesuffix("\n$$") for t in found):
                if LINE_GAP in tex and tex.startswith(begin) and tex.endswith(end):
                    shown += tex[len(begin) : -len(end)].split(LINE_GAP)
                else:
                    shown.append(tex)
        elif el.type == "bidi_component" and el.proto.component_name == "attnviz.steps":
            data = json.loads(el.proto.json)
            shown += [data["lead"], *(f for p in data["panels"] for f in p["formulas"])]
    return shown


def chain(line: str) -> str:
    """A followed weight's score or softmax line, which the page sets one step a line
    (``s_{i,j} &= b \\\\ &= c``, a long sum over lines ``\\\\ &\\quad + …``), as the line
    the lesson gave (``s_{i,j} = b = c``); any other formula as it is."""
    begin, end = r"\begin{aligned}", r"\end{aligned}"
    if not (line.startswith((begin + "s_{", begin + "a_{")) and line.endswith(end)):
        return line
    line = line[len(begin) : -len(end)].replace(r" \\ &\quad + ", " + ")
    return line.replace(r" \\ &= ", " = ").replace(" &= ", " = ", 1)


class _Cells(HTMLParser):
    """The text of each cell (th or td) of an HTML table, row by row."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag in ("th", "td"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("th", "td") and self.cell is not None:
            self.rows[-1].append("".join(self.cell).strip())
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def number_tables(at: AppTest) -> list[pd.DataFrame]:
    """Every ``ui.number_table`` on the page, as read from its HTML: a frame of the numbers
    shown, under the headers shown (its first column the table's index)."""
    tables = []
    for el in at.get("html"):
        if f'class="dataframe {NUMBER_TABLE}"' in el.proto.body:
            cells = _Cells()
            cells.feed(el.proto.body)
            header, *rows = cells.rows
            columns = [[row[k] for row in rows] for k in range(len(header))]
            first = pd.to_numeric(pd.Series(columns[0]), errors="coerce")  # may be words
            lead = first if first.notna().all() else pd.Series(columns[0])
            numbers = [pd.to_numeric(pd.Series(c)) for c in columns[1:]]
            tables.append(pd.concat([lead, *numbers], axis=1, keys=header))
    return tables


def caption_text(at: AppTest) -> str:
    """Every caption's text, one after another: a page draws a run of notes as one caption
    (``ui.prose(small=True)``), so a note is looked for in it, not as a whole element."""
    return "\n\n".join(c.value for c in at.caption)


class Metric(NamedTuple):
    """One labelled value of a ``ui.metrics`` table: its label and value as given (the
    label's markdown, math and all), and the name of its row ("" for a single row)."""

    label: str
    value: str
    row: str


class _Metrics(HTMLParser):
    """A ``ui.metrics`` table's labels (thead), and its rows: each row group's name and
    values."""

    def __init__(self) -> None:
        super().__init__()
        self.labels: list[str] = []
        self.rows: list[tuple[str, list[str]]] = []
        self.part, self.cell = "", None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in ("thead", "tbody"):
            self.part = tag
            if tag == "tbody":
                self.rows.append(("", []))
        elif tag in ("th", "td"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag not in ("th", "td") or self.cell is None:
            return
        text, self.cell = "".join(self.cell).strip(), None
        if self.part == "thead":
            self.labels.append(text)
        elif tag == "th":
            self.rows[-1] = (text, self.rows[-1][1])
        else:
            self.rows[-1][1].append(text)

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def metrics(at: AppTest) -> list[Metric]:
    """Every labelled value the page shows (``ui.metrics``, one markdown element a table),
    in order: a table's rows one after another, each row's values left to right."""
    found = []
    for el in at.markdown:
        if f'<div class="{METRICS}"' in el.value:
            table = _Metrics()
            table.feed(el.value[el.value.index(f'<div class="{METRICS}"') :])
            for row, values in table.rows:
                assert len(values) == len(table.labels), (table.labels, values)
                found += [Metric(k, v, row) for k, v in zip(table.labels, values, strict=True)]
    return found


HEADING = re.compile(r"^(#{1,6}) (.+)$", re.M)  # a markdown heading line (ui.prose's)
KINDS = {1: "title", 2: "header", 3: "subheader"}  # AppTest's names for st.title …


def headings(at: AppTest, level: int = 3) -> list[str]:
    """Every heading of ``level`` on the page, in order: ``st.title`` (1), ``st.header``
    (2), ``st.subheader`` (3), and a heading at the top of a run of text or a table of
    values (``ui.prose``, ``ui.metrics``), which draw it as markdown (``# x`` is level 1)."""
    shown = []
    for el in _elements(at.main):
        if el.type == KINDS[level]:
            shown.append(el.value)
        elif el.type == "markdown":
            shown += [text for marks, text in HEADING.findall(el.value) if len(marks) == level]
    return shown
