"""App-side helpers shared by every page (the engine, attnviz, never imports streamlit).

A run: page_run (begin, settle, end, stop), startup (once per process), navigation (deep
links, unknown pages), way_back (the link back to the tour), share (the URL and share
link), keys (every session-state key).
Drawing: language, layout (the app's CSS, presentation mode, two columns, runs of text,
rows of labelled values), messages, widgets (controls kept in the URL and bounded by the
engine's caps), export (charts with PNG, CSV downloads), components, mosaic and steps;
compute: one cache style; drawn: what a rerun draws, built once per process.
"""

from attnviz.i18n import LANGS

from .compute import compute, compute_with_progress, config, in_turn
from .drawn import drawn
from .export import (
    NUMBER_TABLE,
    csv_button,
    download_label,
    file_stem,
    formula_lines,
    formula_table,
    number_table,
)
from .language import lang, tr
from .layout import display, metrics, presenting, prose, split, style
from .messages import app_error, error_box, explain
from .navigation import navigate, reopen_link, unknown_page
from .page_run import (
    begin_page,
    end_page,
    fragment,
    run_page,
    settle,
    settled,
    show_settled,
    stop,
)
from .plots import plot
from .startup import warm_up
from .way_back import back_to_tour
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
    "app_error",
    "back_to_tour",
    "begin_page",
    "choice_slider",
    "compute",
    "compute_with_progress",
    "config",
    "csv_button",
    "display",
    "download_label",
    "drawn",
    "end_page",
    "error_box",
    "explain",
    "file_stem",
    "formula_lines",
    "formula_table",
    "fragment",
    "in_turn",
    "lang",
    "metrics",
    "navigate",
    "number",
    "number_table",
    "plot",
    "positions",
    "presenting",
    "prose",
    "reopen_link",
    "run_page",
    "select",
    "settle",
    "settled",
    "show_settled",
    "slider",
    "spec_labels",
    "split",
    "stop",
    "style",
    "text",
    "toggle",
    "tr",
    "unknown_page",
    "warm_up",
]
