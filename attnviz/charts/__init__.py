"""Pure Plotly figure builders: arrays / DataFrames in, ``go.Figure`` out.

No Streamlit here, so a notebook can draw the same charts as the app.
"""

from . import block  # the Transformer-block pages' figures: charts.block.flow, .race, …
from .attention import head_grid, heatmap, weights_bar
from .equivariance import attention_triplet, difference_map, permutation_matrix
from .model_view import Mosaic, lines_view, model_grid, mosaic
from .saturation import logit_histograms, softmax_curves, variance_curve, weight_rows
from .scoring import grouped_bars, position_labels

__all__ = [
    "Mosaic",
    "attention_triplet",
    "block",
    "difference_map",
    "grouped_bars",
    "head_grid",
    "heatmap",
    "lines_view",
    "logit_histograms",
    "model_grid",
    "mosaic",
    "permutation_matrix",
    "position_labels",
    "softmax_curves",
    "variance_curve",
    "weight_rows",
    "weights_bar",
]
