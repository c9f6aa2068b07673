"""A deliberately leaky app for tests/load: a module global shared by every session."""

import builtins

import streamlit as st

shared = builtins.__dict__.setdefault("_leak", {})  # a module global shared by all sessions


def page():
    v = st.slider("v", 0, 100, 0, key="v")
    if v:
        shared["v"] = v
    st.write("value", shared.get("v", 0))


st.navigation([st.Page(page, title="p", url_path="p", default=True)]).run()
