"""attnviz: entry point. Language switch, presentation mode, navigation over pages/.

Page scripts sit one folder down, pages/<group>/X.py: a script directly in pages/ would
be found by Streamlit's old multipage discovery, and a deep link on a freshly started
server would then open that page without this frame.
"""

import streamlit as st

import ui
from ui import keys
from ui.internals import fresh_server_first_run
from ui.this_run import held

st.set_page_config(page_title="attnviz", page_icon="🔍", layout="wide")
if fresh_server_first_run():
    ui.reopen_link()
ui.warm_up()
ui.begin_page()

with st.sidebar:
    ui.select(
        keys.LANG,
        "言語 / Language",
        ui.LANGS,
        ui.lang(),
        labels={"ja": "日本語", "en": "English"}.get,
        radio=True,
    )
    ui.toggle(keys.PRESENT, ui.tr("app.present"))
with held():  # the language and presentation mode, fixed from here on: read once
    ui.style()
    try:
        page = ui.navigate()
        ui.unknown_page(page)
        ui.back_to_tour(page)
        ui.run_page(page)
    finally:
        ui.end_page()
