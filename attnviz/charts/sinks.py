"""Where a model's heads park their weight (``attnviz.sinks``): ``sink_grid`` draws one
layer × head map per category ([CLS], [SEP], punctuation, the rest), side by side on one
colour scale; ``layer_shares`` puts, per layer, the share of weight beside the share of
contribution ‖a_ij f_h(x_j)‖ on each category.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from .maps import LEGEND_AT_FOOT, colour_bar, map_trace


def panel_title(text: str, domain: list[float], size: int) -> dict:
    """A panel's title as a paper note centred over its x ``domain``, just above the plot
    (Plotly's "auto" anchors a paper note at its nearer side)."""
    return dict(
        text=text,
        x=(domain[0] + domain[1]) / 2,
        y=1.0,
        xref="paper",
        yref="paper",
        xanchor="center",
        yanchor="bottom",
        showarrow=False,
        font_size=size,
    )


def sink_grid(
    shares: np.ndarray,
    titles: list[str],
    *,
    layer_label: str = "layer {l}",
    head_label: str = "head {h}",
    cell_name: str = "layer {l}, head {h}",
    value_name: str = "share",
    height: int = 330,
    title_px: int = 13,
    head_step: int = 2,
) -> go.Figure:
    """One layer × head grid per category, side by side on one colour scale from 0 to 1:
    ``shares`` (C, L, H), e.g. ``sinks.SinkShares.shares``; layers and heads from 1, their
    ticks ``layer_label`` and ``head_label``, a cell's hover text ``cell_name``.
    ``title_px``: the panels' titles (16 px fits four in a projector's column where the
    long ones are on two lines; 20, the rest of a presented figure's type, runs them into
    each other), each with as many lines as its "<br>" make. Every ``head_step``-th head
    is labelled (4 at a projector's type: at 2 the turned labels run into each other)."""
    shares = np.asarray(shares, dtype=np.float32)
    C, L, H = shares.shape
    heads = [head_label.format(h=b + 1) for b in range(H)]
    layers = [layer_label.format(l=a + 1) for a in range(L)]
    hover = np.array(
        [[cell_name.format(l=a + 1, h=b + 1) for b in range(H)] for a in range(L)], dtype=object
    )
    # one layout dict and one Figure call: far cheaper than an update_layout per category
    traces, layout, notes = [], {}, []
    # each label under its tick, so the top one, "1", stays clear of the title
    bar = colour_bar(title=value_name, ticks="outside", ticklabelposition="outside bottom")
    width, gap = 1 / C, 0.03
    for c in range(C):
        axis = "" if c == 0 else str(c + 1)
        traces.append(
            map_trace(
                shares[c],
                x=np.arange(H, dtype=np.int32),
                y=np.arange(L, dtype=np.int32),
                showscale=c == C - 1,
                bar=bar,
                hover=hover,
                template=f"{titles[c]}<br>%{{customdata}}<br>{value_name} %{{z:.3f}}"
                "<extra></extra>",
                subplot=c + 1,
            )
        )
        domain = [c * width + (gap if c else 0), (c + 1) * width - gap]
        layout[f"xaxis{axis}"] = dict(
            domain=domain,
            anchor=f"y{axis}",
            tickmode="array",
            tickvals=np.arange(H)[::head_step],
            ticktext=heads[::head_step],
            automargin=True,  # the head labels under the grids (a 10 px margin cuts them off)
        )
        layout[f"yaxis{axis}"] = dict(
            anchor=f"x{axis}",
            autorange="reversed",
            tickmode="array",
            tickvals=np.arange(L),
            ticktext=layers,
            showticklabels=c == 0,
            automargin=True,
        )
        notes.append(panel_title(titles[c], domain, title_px))
    lines = max(title.count("<br>") for title in titles) + 1  # the titles' lines, above
    top = round(14 + 1.3 * title_px * lines)
    layout |= dict(annotations=notes, height=height, margin=dict(l=10, r=10, t=top, b=10))
    return go.Figure(traces, layout)


def layer_shares(
    layers: np.ndarray,
    titles: list[str],
    *,
    series_names: tuple[str, str] = ("weight", "contribution"),
    layer_label: str = "layer {l}",
    value_name: str = "share",
    height: int = 300,
    title_px: int = 13,
) -> go.Figure:
    """Per layer, the share of weight beside the share of contribution on each category:
    ``layers`` (2, C, L), e.g. ``Sinks.layers()[:, :3]``; one panel per category (``titles``),
    two bars per layer, on one y axis from 0 to 1 (``value_name``), layers from 1."""
    layers = np.asarray(layers, dtype=np.float64)
    _, C, L = layers.shape
    ticks = [layer_label.format(l=a + 1) for a in range(L)]
    colours = ("#1f77b4", "#ff7f0e")  # weight, contribution: Plotly's first two
    traces, layout, notes = [], {}, []
    width, gap = 1 / C, 0.03
    for c in range(C):
        axis = "" if c == 0 else str(c + 1)
        for s, (name, colour) in enumerate(zip(series_names, colours, strict=True)):
            traces.append(
                go.Bar(
                    x=ticks,
                    y=layers[s, c],
                    name=name,
                    legendgroup=name,
                    showlegend=c == 0,
                    marker_color=colour,
                    xaxis=f"x{axis}",
                    yaxis=f"y{axis}",
                    hovertemplate=f"{titles[c]}<br>%{{x}}<br>{name} %{{y:.3f}}<extra></extra>",
                )
            )
        domain = [c * width + (gap if c else 0), (c + 1) * width - gap]
        layout[f"xaxis{axis}"] = dict(domain=domain, anchor=f"y{axis}", automargin=True)
        layout[f"yaxis{axis}"] = dict(
            anchor=f"x{axis}",
            range=[0, 1],
            showticklabels=c == 0,
            title=value_name if c == 0 else None,
            automargin=True,
        )
        notes.append(panel_title(titles[c], domain, title_px))
    top = round(14 + 1.3 * title_px)
    layout |= dict(
        annotations=notes,
        barmode="group",
        height=height,
        margin=dict(l=10, r=10, t=top, b=10),
        legend=LEGEND_AT_FOOT,
    )
    return go.Figure(traces, layout)
