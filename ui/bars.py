"""The charts under a picked cell, drawn by ui/bars.js: bars, markers and lines as inline
SVG from a payload of ``attnviz.charts.steps``, with a tooltip and a button that saves the
chart as a PNG. A click draws three at once: plain SVG keeps that to the click's own rerun."""

from __future__ import annotations

from .components import component, ordered
from .language import tr
from .layout import presenting

BARS = component("attnviz.bars", "bars")


def bar_chart(payload: dict, key: str) -> None:
    """Draw ``payload`` (``attnviz.charts.steps``) as component ``key``, its PNG saved as
    ``key``.png; presentation mode's text is 20 px, as on the page's Plotly charts."""
    shown = payload | {"large": presenting(), "name": key, "saveLabel": tr("app.save_map_png")}
    BARS(key=key, data=ordered(key, shown))
