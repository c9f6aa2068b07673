"""Charts drawn with their PNG download: a figure's document built once per process
(ui.drawn) and dressed for presentation mode (larger type, long titles on two lines)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import plotly.graph_objects as go
import plotly.io
import streamlit as st

from attnviz.text import TAG, columns, has_japanese

from .drawn import drawn
from .internals import Document
from .layout import presenting


def plot(fig: go.Figure | Callable[[], go.Figure], key: str, name: str) -> None:
    """Draw a Plotly figure; its toolbar keeps the PNG download, named ``name``. An axis
    title beside tick labels that grow the margin gets a standoff, which makes the margin
    grow for the title too (else a title can sit among long or turned tick labels). When
    presenting, every titled axis grows its margin: at 20 px the titles of fixed margins
    lay on the tick labels.

    ``fig`` may be a function that builds the figure: its document is then built once per
    process for what the function reads (ui.drawn), so that a rerun of a figure already
    drawn builds no Plotly object, which costs more than the rest of a rerun (the block
    anatomy page: most of its script's CPU)."""
    figure = Document(drawn(lambda: _document(fig()))) if callable(fig) else _dressed(fig)
    config = {
        "displaylogo": False,
        "toImageButtonOptions": {"format": "png", "filename": name, "scale": 2},
    }
    st.plotly_chart(figure, key=key, config=config, theme=None)


def _dressed(fig: go.Figure) -> go.Figure:
    """``fig`` with its titles and axis titles set for this run's presentation mode."""
    present = presenting()
    _titled(fig, present)
    for axes in (fig.for_each_xaxis, fig.for_each_yaxis):
        axes(lambda axis: _stand_off(axis, present))
    return fig


def _document(fig: go.Figure) -> dict:
    """The plotly.js document of ``fig`` dressed (:func:`_dressed`), as plain JSON values."""
    return json.loads(plotly.io.to_json(_dressed(fig), validate=False))


def _titled(fig: go.Figure, present: bool) -> None:
    """Presentation mode's 20 px type, and a title of two lines set as title and Plotly's
    subtitle (with room for both); a title halved for presenting keeps one size."""
    text, split = fig.layout.title.text or "", False
    if present:
        fig.update_layout(font_size=20, title_font_size=20)  # titles as large as the rest
        if (fig.layout.legend.y or 0) < 0:  # a legend under the axes: below their larger text,
            # and the figure grows for it (the plot area had shrunk to ~170 px); the legend's
            # offset is a share of the plot's height, which grows too
            grown = bool(fig.layout.height)
            fig.update_layout(legend_y=(1.15 if grown else 1.5) * fig.layout.legend.y)
            if grown:
                fig.update_layout(height=round(1.3 * fig.layout.height))
        if "<br>" not in text and columns(text) > PRESENT_TITLE_WIDTH:
            text, split = halved(text), True  # at 20 px a long title ran past its chart
    if "<br>" in text and split and not _panel_titles(fig):
        # one sentence on two lines, at its font's line height above the plot (as a
        # subtitle, its second line sat 1.6 em under the first; anchored to the figure's
        # top, Plotly drew a title of two lines one line too high, cut)
        fig.update_layout(
            title=dict(text=text, automargin=True, yref="paper", y=1, yanchor="bottom", pad_b=12)
        )
    elif "<br>" in text:
        main, sub = text.split("<br>", 1)
        fig.update_layout(
            title=dict(
                text=main,
                subtitle_text=sub,
                automargin=True,
                yref="container",
                y=1,
                yanchor="top",
                pad_t=10,
            )
        )
        if split:  # above panel titles: one sentence on two lines, not a title and a note
            fig.update_layout(title_subtitle_font_size=fig.layout.title.font.size)
    if present:
        _at_least(fig, PRESENT_MIN_PX)


PRESENT_MIN_PX = 18  # no chart text smaller on a projector: titles, ticks, panel titles, labels


def _at_least(fig: go.Figure, px: int) -> None:
    """Every font that ``fig`` sets below ``px`` (a panel's title at 12 px, a colour bar's
    ticks) raised to ``px``; those it leaves unset follow the layout's larger font."""

    def raise_(font) -> None:
        if font is not None and font.size is not None and font.size < px:
            font.size = px

    subtitle = fig.layout.title.subtitle
    if subtitle.text and (subtitle.font.size or 0) < px:  # unset, Plotly draws it at 14 px
        subtitle.font.size = px
    for note in fig.layout.annotations:
        raise_(note.font)
    for axes in (fig.for_each_xaxis, fig.for_each_yaxis):
        axes(lambda axis: (raise_(axis.tickfont), raise_(axis.title.font)))
    raise_(fig.layout.legend.font)
    for trace in fig.data:
        for name in ("textfont", "insidetextfont", "outsidetextfont"):
            if name in trace:
                raise_(trace[name])
        if "colorbar" in trace:
            raise_(trace.colorbar.tickfont)
            raise_(trace.colorbar.title.font)


def _panel_titles(fig: go.Figure) -> bool:
    """Whether ``fig`` has titles over its panels (make_subplots' notes above the plots)."""
    return any(a.yref == "paper" and (a.y or 0) >= 1 for a in fig.layout.annotations)


PRESENT_TITLE_WIDTH = 32  # wider chart titles are set on two lines when presenting
# where a title may break: a Japanese one after 、 or ： or before （ (its spaces only set
# Latin letters and digits apart), any other after a space
# ("L = 12" is not broken around its "=")
BREAKS = {"ja": re.compile(r"(?<=[、：])|(?=（)"), "en": re.compile(r"(?<=[^=] )(?!=)")}
# the better break, where one is near the middle: between two sentences or clauses
SENTENCES = {"ja": re.compile(r"(?<=。)"), "en": re.compile(r"(?<=[.;] )")}
# where neither is near the middle, a Japanese title may break after the particle that ends
# a phrase, before a word (「P：i 行目は」 / 「π(i) 列の…」, not 「P：」 / 「i 行目は…」)
PHRASES = {"ja": re.compile(r"(?<=[はのをが])(?=[ 「\u4e00-\u9fff\u30a0-\u30ffA-Za-z0-9])")}


def _shown(text: str) -> int:
    """Characters ``text`` shows (its tags left out)."""
    return len(TAG.sub("", text))


def halved(title: str) -> str:
    """``title`` (a chart's or a panel's) with "<br>" at a break near its middle (as it is
    if none): the end of a sentence or clause, else punctuation, else (Japanese) a phrase's
    end, whichever kind first has one within a quarter of the title's length of the middle;
    failing all, the punctuation nearest the middle (「…の分散（両対数）。」 / 「当てはめた
    傾きを…」, not 「…の分散」 / 「（両対数）。当てはめた…」)."""
    middle, lang = _shown(title) / 2, "ja" if has_japanese(title) else "en"

    def off(k: int) -> float:
        return abs(_shown(title[:k]) - middle)

    def cuts(rule: re.Pattern) -> list[int]:
        return [m.start() for m in rule.finditer(title) if 0 < m.start() < len(title)]

    near = (
        [k for k in cuts(rules[lang]) if off(k) <= _shown(title) / 4]
        for rules in (SENTENCES, BREAKS, PHRASES)
        if lang in rules
    )
    best = next((c for c in near if c), None) or cuts(BREAKS[lang])
    if not best:
        return title
    cut = min(best, key=off)
    return title[:cut].rstrip() + "<br>" + title[cut:].lstrip()


def _stand_off(axis, present: bool) -> None:
    if present and axis.title.text:
        axis.automargin = True
    if axis.automargin and axis.title.text and axis.title.standoff is None:
        axis.title.standoff = 8
