"""The reference for bench_ui: the smallest Streamlit app with one slider."""

import streamlit as st

value = st.slider("x", 0, 100, 50)
st.metric("value", value)
