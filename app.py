"""attnviz: entry point. Language switch, presentation mode, navigation over pages/.

Page scripts sit one folder down, pages/<group>/X.py: a script directly in pages/ would
be found by Streamlit's old multipage discovery, and a deep link on a freshly started
server would then open that page without this frame.
"""

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

import ui
from ui import keys

st.set_page_config(page_title="attnviz", page_icon="🔍", layout="wide")
if PagesManager.uses_pages_directory:  # True only in a fresh server's first run
    PagesManager.uses_pages_directory = False
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
ui.style()


def pages() -> dict[str, list[st.Page]]:
    """The pages by group, in this run's language."""
    return {
        "": [
            st.Page(
                "pages/start/home.py", title=ui.tr("app.nav_home"), url_path="home", default=True
            ),
            st.Page("pages/start/tour.py", title=ui.tr("app.nav_tour"), url_path="tour"),
        ],
        ui.tr("app.nav_group_basics"): [
            st.Page("pages/attention/scoring.py", title=ui.tr("scoring.nav"), url_path="scoring"),
            st.Page(
                "pages/attention/multihead.py", title=ui.tr("multihead.nav"), url_path="multihead"
            ),
            st.Page(
                "pages/attention/saturation.py",
                title=ui.tr("saturation.nav"),
                url_path="saturation",
            ),
            st.Page(
                "pages/attention/equivariance.py",
                title=ui.tr("equivariance.nav"),
                url_path="equivariance",
            ),
        ],
        ui.tr("app.nav_group_block"): [
            st.Page(
                "pages/block/block_anatomy.py",
                title=ui.tr("block_anatomy.nav"),
                url_path="block_anatomy",
            ),
            st.Page(
                "pages/block/depth_gradients.py",
                title=ui.tr("depth_gradients.nav"),
                url_path="depth_gradients",
            ),
            st.Page(
                "pages/block/training_race.py",
                title=ui.tr("training_race.nav"),
                url_path="training_race",
            ),
            st.Page(
                "pages/block/positional.py", title=ui.tr("positional.nav"), url_path="positional"
            ),
        ],
        ui.tr("app.nav_group_real"): [
            st.Page(
                "pages/real/real_model.py", title=ui.tr("real_model.nav"), url_path="real_model"
            ),
        ],
    }


try:
    page = ui.navigate(pages)
    ui.unknown_page(page)
    ui.back_to_tour(page)
    page.run()
finally:
    ui.end_page()
