"""Downloads made only when clicked (CSV), their buttons' labels and file names, and the
pages' small tables of numbers and formulas."""

from __future__ import annotations

import re
from collections.abc import Callable

import pandas as pd
import pyarrow as pa
import streamlit as st

from attnviz.i18n import plain
from attnviz.tables import long_table
from attnviz.text import is_wide

from .drawn import drawn
from .language import lang, tr


def download_label(kind: str, what: str) -> str:
    """A download button's text, ``kind`` "csv" or "png": 「X を CSV でダウンロード」 with a
    space before を only after a Latin letter, digit or symbol, as the app writes 行 i を."""
    if lang() == "ja" and what and not is_wide(what[-1]):
        what += " "
    return tr(f"app.download_{kind}", name=what)


def _arrow(table: pd.DataFrame) -> pa.Table:
    """``table`` as Arrow, without its index (the pages' tables hide it)."""
    return pa.Table.from_pandas(table, preserve_index=False)


def csv_button(
    table: pd.DataFrame | Callable[[], pd.DataFrame],
    name: str,
    key: str,
    where=st,
    *,
    label: str | None = None,
) -> None:
    """A CSV download (UTF-8 with BOM, so spreadsheet apps read Japanese), saved as
    ``name``.csv; the button names what it holds, ``label`` (translated), or ``name``.

    The file is made only when the button is clicked; pass a function to defer
    building a large table as well.
    """

    def data() -> bytes:
        return csv_text(table() if callable(table) else table).encode("utf-8-sig")

    where.download_button(
        download_label("csv", label or name),
        data,
        file_name=f"{file_stem(name)}.csv",
        mime="text/csv",
        key=key,
        on_click="ignore",
    )


NOT_IN_FILE_NAMES = re.compile(r'[\\/:*?"<>|]')  # what Windows or a browser refuses


def file_stem(what: str) -> str:
    """A download's file name (no extension) from what it holds, in the reader's language,
    as its button names it: plain text, a character no file name may hold as "-"."""
    return NOT_IN_FILE_NAMES.sub("-", plain(what))


def map_table(
    z, rows: list[str], cols: list[str], corner: str = "app.csv_corner"
) -> Callable[[], pd.DataFrame]:
    """An attention map (or scores) as a CSV's table, built when its button is clicked: a
    row per query, a column per key, and the corner above the row labels says so (blank,
    it read as "Unnamed: 0"; ``corner`` names another matrix's rows and columns). Its
    header is translated now: the click's callback runs outside the page's run, where the
    language is not known."""
    name = tr(corner)
    return lambda: pd.DataFrame(z, index=pd.Index(rows, name=name), columns=cols)


def maps_table(
    maps, labels: list[str], value: str, lead: tuple[str, ...]
) -> Callable[[], pd.DataFrame]:
    """``long_table`` of ``maps`` (layers and heads from 1, as the page shows them), built
    when its button is clicked, headed in the reader's language (translated now, as
    ``map_table``'s): ``lead`` names ("layer", "head"), ``value`` the values' own translated
    name; indexed by the first of ``lead``."""
    names = [tr(f"app.csv_{name}") for name in lead]
    query, key = tr("app.csv_query"), tr("app.csv_key")
    return lambda: long_table(maps, labels, value, names, query, key).set_index(names[0])


def csv_text(table: pd.DataFrame) -> str:
    """``table`` as the text of a CSV file, its headers as plain text."""
    return plain(table.to_csv())


LINE_GAP = r" \\[16pt] "  # between the formulas of one formula_lines block


def formula_lines(formulas: list[str], where=st) -> None:
    """Display formulas one a line, as one element (``gathered``): a rerun sends and draws
    one element instead of one per formula."""
    where.latex(r"\begin{gathered}" + LINE_GAP.join(formulas) + r"\end{gathered}")


def formula_table(table: pd.DataFrame, where=st) -> None:
    """A table whose ``step`` and ``formula`` columns are LaTeX, typeset; headers from
    ``app.col_<name>``. ``st.table`` typesets each cell on its own, so a rerun that changes
    only the shapes does not typeset the formulas again, as one Markdown table would. The
    table is converted for Streamlit (Arrow) once per process for its values, the language
    and presentation mode (ui.drawn)."""

    def shown() -> pd.DataFrame:
        shown = table.copy()
        for c, style in (("step", ""), ("formula", r"\displaystyle ")):  # full-size fractions
            if c in shown:
                shown[c] = "$" + style + shown[c] + "$"
        shown.columns = [tr(f"app.col_{c}") for c in table.columns]
        return shown

    where.table(drawn(lambda: _arrow(shown())), hide_index=True)


NUMBER_TABLE = "attnviz-numbers"  # the class of number_table's tables (ui/app.css styles it)


def number_table(
    table: pd.DataFrame | Callable[[], pd.DataFrame],
    decimals: int,
    where=st,
) -> None:
    """A small table of numbers as one HTML element, its index the first column (headed by
    the index's name). ``st.table`` draws every cell as Markdown and draws them all again
    on each of a rerun's React commits (about 13 per change of H on the multi-head page);
    an HTML element is drawn again only when it changes. ``table`` may be a function that
    makes the table; the HTML is made once per process for what it reads (ui.drawn)."""

    def html() -> str:
        shown = (table() if callable(table) else table).reset_index()
        return shown.to_html(
            index=False,
            border=0,
            classes=NUMBER_TABLE,
            float_format=f"{{:.{decimals}f}}".format,
        )

    where.html(drawn(html))
