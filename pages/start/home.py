"""Home: what each page shows, and the devices the engine runs on."""

import streamlit as st
import torch

import ui
from attnviz.device import describe_device, resolve_device

PAGES = (
    "tour",
    "classroom",
    "scoring",
    "multihead",
    "saturation",
    "equivariance",
    "block_anatomy",
    "depth",
    "training",
    "positional",
    "real_model",
)
# the introduction and the list of pages in one element: each element of a page costs every
# rerun of every student its own message
listed = "\n".join(f"- {ui.tr(f'home.{key}')}" for key in PAGES)
ui.prose(ui.tr("home.intro"), listed, heading=ui.tr("home.heading"), level=1)
engine, small = resolve_device(), resolve_device(many_small_kernels=True)
st.caption(ui.tr("app.device", device=describe_device(engine), version=torch.__version__))
if small != engine:  # on a GPU host: the two pages that train small models stay on the CPU
    st.caption(ui.tr("app.device_small", device=describe_device(small)))
