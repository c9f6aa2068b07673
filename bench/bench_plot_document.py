"""What ``st.plotly_chart`` costs per rerun for a document built once (ui.drawn), handed
over three ways: as ui.plots' document figure (no validation), as a plain dict (Streamlit
validates it by building a ``go.Figure``; Plotly 7.1 then refuses a figure with no traces,
such as the block anatomy's flow, drawn with shapes alone), and rebuilt as a ``go.Figure``
from the dict.

Each time is Streamlit 1.67's own conversion in ``plotly_chart``:
``plotly.tools.return_figure_from_figure_or_data(x, validate_figure=True)`` then
``plotly.io.to_json(figure, validate=False)``, on the block anatomy page's two figures
and one head's heatmap of weights (N = 66).

    python3 -m bench.bench_plot_document
"""

from __future__ import annotations

import timeit

import plotly.graph_objects as go
import plotly.io
import plotly.tools

from attnviz.charts import block_anatomy as anatomy_charts
from attnviz.charts import maps
from attnviz.lessons import block_anatomy, multihead
from ui.internals import Document
from ui.plots import _document


def _figures() -> dict[str, go.Figure]:
    r = block_anatomy.run(block_anatomy.Config(text="the cat sat on the mat"))
    words = " ".join(["the cat sat on the mat"] * 11)
    m = multihead.run(multihead.Config(text=words))
    N = len(m.tokens)
    return {
        "block anatomy flow": anatomy_charts.flow(r.steps, r.shapes, r.residuals),
        "block anatomy norms": anatomy_charts.stream_norms(r.norms, r.steps, r.tokens),
        f"heatmap (N={N})": maps.heatmap(m.weights[0], m.tokens, m.tokens),
    }


def _convert(figure_or_data) -> str:
    figure = plotly.tools.return_figure_from_figure_or_data(figure_or_data, validate_figure=True)
    return plotly.io.to_json(figure, validate=False)


def main(repeat: int = 5, number: int = 20) -> None:
    for name, fig in _figures().items():
        doc = _document(fig)
        ways = {
            "document figure (internal)": lambda doc=doc: _convert(Document(doc)),
            "dict (public)": lambda doc=doc: _convert(doc),
            "go.Figure(dict) (public)": lambda doc=doc: _convert(go.Figure(doc)),
        }
        for way, call in ways.items():
            try:
                best = min(timeit.repeat(call, repeat=repeat, number=number)) / number
            except Exception as err:  # Plotly refuses a dict with no traces (its own bug)
                print(f"{name:26s} {way:28s} fails: {type(err).__name__}")
            else:
                print(f"{name:26s} {way:28s} {1e3 * best:8.2f} ms")


if __name__ == "__main__":
    main()
