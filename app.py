"""attnviz: entry point. Language switch, presentation mode, navigation over views/.

The page scripts live in views/, not pages/: Streamlit runs an app that has a pages/
folder in its old multipage mode until the first visitor opens the main page, so a
shared deep link on a freshly started server would open a page without this frame.
"""

import streamlit as st

import ui

st.set_page_config(page_title="attnviz", page_icon="🔍", layout="wide")
ui.warm_up()
ui.begin_page()

with st.sidebar:
    ui.select(
        "lang",
        "言語 / Language",
        ui.LANGS,
        ui.lang(),
        labels={"ja": "日本語", "en": "English"}.get,
        radio=True,
    )
    ui.toggle("present", ui.tr("app.present"))
if ui.presenting():
    st.html(
        "<style>[data-testid=stMain] .stMarkdown :is(p, li) {font-size: 1.35rem !important;}"
        " [data-testid=stMain] .katex {font-size: 1.5em !important;}"
        " [data-testid=stMain] .katex-display {overflow-x: auto; overflow-y: hidden;}</style>"
    )

PAGES = {
    "": [st.Page("views/home.py", title=ui.tr("app.nav_home"), url_path="home", default=True)],
    ui.tr("app.nav_group_basics"): [
        st.Page("views/scoring.py", title=ui.tr("scoring.nav"), url_path="scoring"),
        st.Page("views/multihead.py", title=ui.tr("multihead.nav"), url_path="multihead"),
        st.Page("views/saturation.py", title=ui.tr("saturation.nav"), url_path="saturation"),
        st.Page("views/equivariance.py", title=ui.tr("equivariance.nav"), url_path="equivariance"),
    ],
    ui.tr("app.nav_group_block"): [
        st.Page(
            "views/block_anatomy.py", title=ui.tr("block_anatomy.nav"), url_path="block_anatomy"
        ),
        st.Page("views/depth_gradients.py", title=ui.tr("depth.nav"), url_path="depth_gradients"),
        st.Page("views/training_race.py", title=ui.tr("training.nav"), url_path="training_race"),
        st.Page("views/positional.py", title=ui.tr("positional.nav"), url_path="positional"),
    ],
    ui.tr("app.nav_group_real"): [
        st.Page("views/real_model.py", title=ui.tr("real_model.nav"), url_path="real_model"),
    ],
}
try:
    st.navigation(PAGES).run()
finally:
    ui.share_link()
