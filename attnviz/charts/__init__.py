"""Pure Plotly figure builders: arrays / DataFrames in, ``go.Figure`` out.

No Streamlit here, so a notebook can draw the same charts as the app.
"""

from .attention import head_grid, heatmap, weights_bar

__all__ = ["head_grid", "heatmap", "weights_bar"]
