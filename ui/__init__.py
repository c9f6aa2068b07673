"""App-side helpers shared by every page (the engine, attnviz, never imports streamlit).

frame: language, presentation mode, the share link, messages; widgets: controls kept
in the URL and bounded by the engine's caps; export: charts with PNG, CSV downloads.
"""

from attnviz.i18n import LANGS

from .compute import compute, compute_with_progress, config, in_turn
from .export import (
    NUMBER_TABLE,
    csv_button,
    download_label,
    formula_lines,
    formula_table,
    number_table,
    plot,
)
from .frame import (
    SPLIT_MIN_PX,
    begin_page,
    end_page,
    error_box,
    explain,
    lang,
    presenting,
    reopen_link,
    settle,
    settled,
    split,
    stop,
    tr,
    unknown_page,
    warm_up,
)
from .widgets import (
    choice_slider,
    number,
    positions,
    select,
    slider,
    spec_labels,
    text,
    toggle,
)

__all__ = [
    "LANGS",
    "NUMBER_TABLE",
    "SPLIT_MIN_PX",
    "begin_page",
    "choice_slider",
    "compute",
    "compute_with_progress",
    "config",
    "csv_button",
    "download_label",
    "end_page",
    "error_box",
    "explain",
    "formula_lines",
    "formula_table",
    "in_turn",
    "lang",
    "number",
    "number_table",
    "plot",
    "positions",
    "presenting",
    "reopen_link",
    "select",
    "settle",
    "settled",
    "slider",
    "spec_labels",
    "split",
    "stop",
    "text",
    "toggle",
    "tr",
    "unknown_page",
    "warm_up",
]
