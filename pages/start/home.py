"""Home: what each page shows, and the device the engine runs on."""

import streamlit as st
import torch

import ui
from attnviz.device import describe_device, resolve_device

st.title(ui.tr("home.heading"))
st.markdown(ui.tr("home.intro"))
for key in (
    "tour",
    "scoring",
    "multihead",
    "saturation",
    "equivariance",
    "block_anatomy",
    "depth",
    "training",
    "positional",
    "real_model",
):
    st.markdown(f"- {ui.tr(f'home.{key}')}")
st.caption(ui.tr("app.device", device=describe_device(resolve_device()), version=torch.__version__))
