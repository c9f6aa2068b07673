"""Lines across a panel, as Plotly's ``add_hline`` and ``add_vline`` draw them, given to a
figure's layout all at once.

``fig.add_vline(…, row=r, col=c)`` checks the figure's every shape again and looks up the
panel's axes for each line; a figure of four panels spent more drawing its five rules than
its curves. Here a rule is the same shape as a plain dict, on the axes ``at`` names: "" for
the first panel's (x, y), "2" for (x2, y2), and so on (make_subplots numbers the panels row
by row from 1).
"""

from __future__ import annotations


def panel(row: int, col: int, cols: int) -> str:
    """The suffix of the axes of make_subplots' panel (``row``, ``col``), both from 1, in a
    grid ``cols`` wide: "" for the first, else its number."""
    k = (row - 1) * cols + col
    return "" if k == 1 else str(k)


def hline(y: float, at: str = "", **line: object) -> dict:
    """A horizontal line at ``y`` across the panel of axes ``at``; ``line``: its style
    (color, dash, width)."""
    return dict(type="line", xref=f"x{at} domain", x0=0, x1=1, yref=f"y{at}", y0=y, y1=y, line=line)


def vline(x: float, at: str = "", **line: object) -> dict:
    """A vertical line at ``x`` across the panel of axes ``at``; ``line``: its style."""
    return dict(type="line", xref=f"x{at}", x0=x, x1=x, yref=f"y{at} domain", y0=0, y1=1, line=line)
