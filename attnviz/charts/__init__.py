"""Pure Plotly figure builders: arrays / DataFrames in, ``go.Figure`` out.

No Streamlit here, so a notebook can draw the same charts as the app.
"""

from .attention import head_grid, heatmap, weights_bar
from .model_view import lines_view, model_grid
from .scoring import grouped_bars, position_labels

__all__ = [
    "grouped_bars",
    "head_grid",
    "heatmap",
    "lines_view",
    "model_grid",
    "position_labels",
    "weights_bar",
]
