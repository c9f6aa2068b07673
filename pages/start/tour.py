"""Tour of the chapter (S1 → S16): each claim, its equation, a question, a prepared link."""

import streamlit as st

import ui
from attnviz.lessons import tour

st.title(ui.tr("tour.title"))
st.markdown(ui.tr("tour.intro"))
for stop in tour.stops(ui.lang()):
    key = stop.claim.lower()
    with st.container(border=True):
        st.markdown(f"**{stop.claim}** · {ui.tr(f'tour.{key}_claim')}")
        st.latex(stop.formula)
        # bold, not italic: Japanese type has no italics, and a browser only slants the glyphs
        st.markdown(f"**{ui.tr('tour.question')}** {ui.tr(f'tour.{key}_question')}")
        label = ui.tr("tour.open", page=ui.tr(f"{stop.page}.nav"), state=ui.tr(f"tour.{key}_state"))
        st.page_link(stop.script, label=label, icon="➡️", query_params=stop.query())
