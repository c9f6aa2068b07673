"""The class's two rounds side by side: each choice's share of the votes in round 1 and in
round 2, the right choice in green, so the shift between the rounds is what the eye meets
(peer instruction's point: Crouch & Mazur 2001)."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots

RIGHT, OTHER = "#1a7f37", "#8c959f"


def rounds(
    letters: list[str],
    keys: list[str],
    right: str,
    counts: tuple[dict[str, int], dict[str, int]],
    titles: tuple[str, str],
    axis: str,
) -> go.Figure:
    """Two bar charts, one per round: the share of voters (%) for each choice, labelled by its
    letter (``letters[i]`` for ``keys[i]``), with the count on each bar."""
    fig = make_subplots(rows=1, cols=2, subplot_titles=titles, shared_yaxes=True)
    colours = [RIGHT if k == right else OTHER for k in keys]
    for col, votes in enumerate(counts, start=1):
        n = sum(votes.values())
        shares = [100 * votes.get(k, 0) / n if n else 0.0 for k in keys]
        text = [str(votes.get(k, 0)) for k in keys]
        fig.add_bar(x=letters, y=shares, marker_color=colours, text=text, row=1, col=col)
    fig.update_traces(textposition="outside", showlegend=False, cliponaxis=False)
    fig.update_yaxes(range=[0, 110], title_text=axis, row=1, col=1)
    fig.update_layout(height=320, margin=dict(l=60, r=20, t=50, b=40), bargap=0.3)
    return fig
