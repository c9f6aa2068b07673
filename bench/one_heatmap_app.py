"""A floor for bench_ui: the trivial app plus one 32 × 32 Plotly heat map that the slider
changes (no labels, no hover text). No page that redraws a Plotly chart can be faster."""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

value = st.slider("x", 0, 100, 50)
st.metric("value", value)
z = np.random.default_rng(value).random((32, 32), dtype=np.float32)
st.plotly_chart(go.Figure(go.Heatmap(z=z)), theme=None)
