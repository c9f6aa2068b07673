"""The real-model page's sinks, per layer: the share of weight beside the share of
contribution ‖a_ij f_h(x_j)‖ (Kobayashi et al. 2020) that goes to the family's sink
candidates and punctuation, as bars and as a table, under one sentence on what the gap
means for reading a map of weights. Drawn by ``real_model_sinks.section``; strings are
``real_model.*``.
"""

from __future__ import annotations

from attnviz import sinks
from attnviz.charts.sinks import layer_shares
from attnviz.lessons import real_model
from attnviz.lessons.real_model import sinks as real_sinks
from ui.export import file_stem, number_table
from ui.language import tr
from ui.layout import presenting, prose
from ui.plots import plot

SHOWN = ["cls", "sep", "punct"]  # the places heads park weight (the rest is what is left)


def section(r: real_model.Result) -> None:
    """Per layer, the two shares side by side (the model's own maps: nothing hidden); the
    chart and table drawn once per process for what they read (ui.plot)."""
    view = r.sinks
    shown = r.categories(SHOWN)
    c, layer, w, m = view.largest_gap()
    sink = tr(r.category_key(c))
    prose(
        f"**{tr('real_model.sinks_layers_title')}**",
        tr("real_model.sinks_layers_reading", sink=sink, l=layer + 1, w=w, m=m),
    )
    names = (tr("real_model.share_weight"), tr("real_model.share_contribution"))
    titles = [tr(r.category_key(c)) for c in shown]
    plot(
        lambda: layer_shares(
            view.layers()[:, [sinks.CATEGORIES.index(c) for c in shown]],
            titles,
            series_names=names,
            layer_label=tr("real_model.layer_label", l="{l}"),
            value_name=tr("real_model.sink_value"),
            title_px=16 if presenting() else 13,
        ),
        "sink_layers",
        file_stem(tr("real_model.sinks_layers_title")),
    )

    def table():
        shares = real_sinks.layer_table(view, shown)
        shares.columns = [
            f"{tr(r.category_key(c))} {tr(f'real_model.share_{m}')}" for c, m in shares.columns
        ]
        shares.index.name = tr("real_model.layer_column")
        return shares

    number_table(table, decimals=3)
