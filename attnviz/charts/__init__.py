"""Pure Plotly figure builders: arrays / DataFrames in, ``go.Figure`` out.

No Streamlit here, so a notebook can draw the same charts as the app. Page ``X``'s
figures live in ``charts/X.py``; the pieces several pages share in ``maps`` (the one heat
map trace and colour bar every chart uses, one head's heat map), ``grid`` (a grid of
heads), ``cells`` (one map as a picture to click and zoom: the payload of the app's
ui/heatmap.js), ``steps`` (the bar charts under a picked cell: payloads of the app's
ui/bars.js), ``qkspace`` (a head's query–key picture) and ``raster`` (colour table,
pooling, PNG). ``sinks`` draws ``attnviz.sinks``: where the heads park weight.
"""

from .grid import head_grid
from .maps import heatmap
from .real_model import Mosaic, lines_view, model_grid, mosaic

__all__ = ["Mosaic", "head_grid", "heatmap", "lines_view", "model_grid", "mosaic"]
