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
st.html(  # a formula wider than its column scrolls instead of being cut; display formulas
    # a little smaller than KaTeX's 1.21em, so that a third of a 1280-pixel screen holds them
    # (with room above and below: a scrolling box cuts what it does not hold, and KaTeX's
    # glyphs reach a pixel past their boxes, the tops of ℝ^{M×D} and of √D's bar)
    "<style>[data-testid=stMain] .katex-display {overflow-x: auto; overflow-y: hidden;}"
    " [data-testid=stMain] .katex-display > .katex {font-size: 1.1em; padding-block: 0.2em;}"
    # ui.number_table's tables, ruled like st.table's in either theme (lines and headers in
    # the text's own colour, lighter), the numbers right-aligned in equal-width digits
    f" .{ui.NUMBER_TABLE} {{border-collapse: collapse; font-size: 0.875rem;"
    " font-variant-numeric: tabular-nums; margin-bottom: 1rem;}"
    f" .{ui.NUMBER_TABLE} :is(th, td) {{padding: 0.25rem 0.75rem; text-align: right;"
    " border: 1px solid color-mix(in srgb, currentColor 15%, transparent);}"
    f" .{ui.NUMBER_TABLE} th {{font-weight: 400; vertical-align: bottom;"
    " color: color-mix(in srgb, currentColor 60%, transparent);}"
    # Streamlit fades an element that a rerun has not yet redrawn, after 0.5 s; the fade's
    # transition, set on every element of the page at each rerun, cost about 40 ms of paint
    # and compositing per slider change of the multi-head page (bench/bench_ui.py, same-run
    # A/B). Our reruns are shorter than the delay, and a longer one shows a spinner or bar.
    " [data-stale=true] {transition: none !important; opacity: 1 !important;}"
    # a toggle's or metric's label wraps instead of ending in "…": its end often names the
    # chapter's rule or the threshold the number counts by
    " :is([data-testid=stCheckbox] [data-testid=stWidgetLabel], [data-testid=stMetricLabel])"
    " :is(.stMarkdownEllipsis, p)"
    " {white-space: normal; overflow: visible; text-overflow: clip;}"
    # Japanese headings, labels, radio options and buttons break between phrases, not inside a
    # word (「注意機/構」, 「ダウンロ/ード」, 「分/散」); a phrase longer than its line still breaks
    " :lang(ja) :is(h1, h2, h3, [data-testid=stWidgetLabel] p, [data-testid=stMetricLabel] p,"
    " [role=radiogroup] p, button p, [data-testid=stSidebarNav] span)"
    " {word-break: auto-phrase; overflow-wrap: break-word;}"
    # and no Japanese line begins with ー or a small kana (「ウォ/ームアップ」, 「トークナイザ/ー」)
    " :lang(ja) {line-break: strict;}"
    # a page's two columns (ui.split) stack when they would be too narrow side by side
    " .st-key-split {container-type: inline-size;}"
    f" @container (max-width: {ui.SPLIT_MIN_PX}px) {{"
    " .st-key-split > [data-testid=stLayoutWrapper] > [data-testid=stHorizontalBlock]"
    " {flex-direction: column;} .st-key-split > [data-testid=stLayoutWrapper]"
    " > [data-testid=stHorizontalBlock] > [data-testid=stColumn] {width: 100% !important;}}"
    "</style>"
)
if ui.presenting():
    st.html(
        "<style>[data-testid=stMain] .stMarkdown :is(p, li) {font-size: 1.35rem !important;}"
        " [data-testid=stMain] [data-testid=stWidgetLabel] p {font-size: 1.15rem !important;}"
        # tables, also in a popover (drawn outside stMain)
        " :is([data-testid=stMain], [data-testid=stPopoverBody]) [data-testid=stTable]"
        " :is(td, th) p {font-size: 1.2rem !important;}"
        " [data-testid=stMain] [data-testid=stTable] tbody th p {white-space: nowrap;}"
        f" [data-testid=stMain] .{ui.NUMBER_TABLE} {{font-size: 1.2rem;}}"
        " [data-testid=stMain] :is([data-testid=stDownloadButton], [data-testid=stButton],"
        " [data-testid=stPopover], [role=radiogroup]) p,"
        " [data-testid=stMain] [data-testid=stSliderThumbValue]"
        " {font-size: 1.15rem !important;}"
        # the value of a select box, number or text field, and a select box's open list
        " [data-testid=stMain] :is([data-testid=stSelectbox], [data-testid=stNumberInput],"
        " [data-testid=stTextInput]) input, [role=listbox] [role=option]"
        " {font-size: 1.15rem !important;}"
        # display formulas as large as the prose's inline math allows their column: 1.1 × the
        # prose's 1.35rem (their desk proportion), less where the column is narrower than
        # the widest formula (positional's s_ij, 31em) needs, never under the desk's 1.1em
        " [data-testid=stMain] :is([data-testid=stMainBlockContainer], [data-testid=stColumn])"
        " {container-type: inline-size;}"
        " [data-testid=stMain] .katex-display > .katex"
        " {font-size: clamp(1.1em, 3.2cqi, 1.485rem) !important;}"
        # the tour's links, metric labels and messages, at the size of the controls and prose
        " [data-testid=stMain] :is([data-testid=stPageLink], [data-testid=stMetricLabel]) p"
        " {font-size: 1.15rem !important;}"
        " [data-testid=stMain] [data-testid=stAlert] :is(p, li) {font-size: 1.35rem !important;}"
        "</style>"
    )

PAGES = {
    "": [
        st.Page("pages/start/home.py", title=ui.tr("app.nav_home"), url_path="home", default=True),
        st.Page("pages/start/tour.py", title=ui.tr("app.nav_tour"), url_path="tour"),
    ],
    ui.tr("app.nav_group_basics"): [
        st.Page("pages/attention/scoring.py", title=ui.tr("scoring.nav"), url_path="scoring"),
        st.Page("pages/attention/multihead.py", title=ui.tr("multihead.nav"), url_path="multihead"),
        st.Page(
            "pages/attention/saturation.py", title=ui.tr("saturation.nav"), url_path="saturation"
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
        st.Page("pages/block/positional.py", title=ui.tr("positional.nav"), url_path="positional"),
    ],
    ui.tr("app.nav_group_real"): [
        st.Page("pages/real/real_model.py", title=ui.tr("real_model.nav"), url_path="real_model"),
    ],
}
try:
    page = st.navigation(PAGES)
    ui.unknown_page(page)
    page.run()
finally:
    ui.end_page()
