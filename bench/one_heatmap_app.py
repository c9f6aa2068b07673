"""A floor for bench_ui: the trivial app plus one n × n Plotly heat map (``?n=32`` or
``?n=256``) that the slider changes, with no labels or hover text. No page that redraws a
Plotly heat map of that size can be faster."""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

n = min(int(st.query_params.get("n", 32)), 512)
value = st.slider("x", 0, 100, 50)
st.metric("value", value)
z = np.random.default_rng(value).random((n, n), dtype=np.float32)
st.plotly_chart(go.Figure(go.Heatmap(z=z)), theme=None)
