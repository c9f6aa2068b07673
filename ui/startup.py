"""Once per process, before the first page: the set-up every later run would pay for."""

from __future__ import annotations

import gc

import plotly.graph_objects as go
import streamlit as st


@st.cache_resource
def warm_up() -> bool:
    """Pay Plotly's first-figure set-up, then freeze the heap.

    Freezing the objects alive after start-up (torch, plotly, pandas) keeps them out of
    every later garbage-collection pass.
    """
    go.Figure(go.Heatmap(z=[[0.0]])).to_json()
    gc.collect()
    gc.freeze()
    return True
