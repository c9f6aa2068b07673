"""The floor for bench_server_cost: Streamlit's own cost of a rerun, one slider and one text."""

import streamlit as st

value = st.slider("x", 0, 100, 50, key="x")
words = st.text_input("words", "the cat sat", key="words")
st.metric("value", value)
st.write(words)
