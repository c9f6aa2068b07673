"""The teacher's view of a class (pages/start/classroom.py, opened by the teacher's link or
by "start a class" on the tour): the code and the QR code of the student link, large enough
to scan from the back of a room; the way to the tour; the summary of each stop's two rounds,
shown and as CSV; the teacher's own link; ending the class."""

from __future__ import annotations

import io
from urllib.parse import urlencode, urlsplit

import segno
import streamlit as st

import ui
from attnviz import classroom as cr
from pages.start import classroom_views as views
from ui import classroom
from ui.keys import CLASS_ERROR, CLASS_TEACHER, PRESENT, own


def origin() -> str:
    """The app's address: scheme, host and the server's base path."""
    url = urlsplit(st.context.url or "http://localhost")
    base = str(st.get_option("server.baseUrlPath") or "").strip("/")
    return f"{url.scheme}://{url.netloc}" + (f"/{base}" if base else "")


def student_link(code: str) -> str:
    """The link students open: the class code only (each student's own language)."""
    return f"{origin()}/classroom?{urlencode({'class': code})}"


def teacher_link(code: str, key: str) -> str:
    return f"{origin()}/classroom?{urlencode({'class': code, 'key': key})}"


def qr_png(link: str) -> bytes:
    """The link as a QR code: error correction M, 4 modules of quiet zone, drawn large."""
    buf = io.BytesIO()
    segno.make(link, error="m").save(buf, kind="png", scale=16, border=4)
    return buf.getvalue()


def _end(code: str, key: str) -> None:
    try:
        classroom.store().end(code, key)
    except cr.ClassError as err:
        own()[CLASS_ERROR] = classroom.say(err)
        return
    own().pop(CLASS_TEACHER, None)  # the browser's cookie now opens nothing


def show(teacher: dict) -> None:
    code, key = teacher["code"], teacher["key"]
    try:
        state = classroom.store().state(code, fresh=0)
        rows = views.summary_rows(classroom.store().summary(code, key))
    except cr.ClassError as err:
        st.error(classroom.say(err))
        if isinstance(err, cr.NoClass | cr.BadKey):
            own().pop(CLASS_TEACHER, None)
        return
    classroom.keep_teacher(code, key)
    link = student_link(code)
    words, picture = st.columns([3, 2], gap="large")
    with words:
        st.markdown(ui.tr("classroom.join_with"))
        st.html(f'<div class="attnviz-class-code" aria-label="{code}">{code}</div>')
        st.markdown(f"`{link}`")
        stop = state.stop or "S1"
        query = {"stop": stop, "example": state.example, PRESENT: "true", "lang": ui.lang()}
        label = ui.tr("classroom.to_tour", stop=stop)
        st.page_link("pages/start/tour.py", label=label, icon="➡️", query_params=query)
    with picture:
        st.image(qr_png(link), caption=ui.tr("classroom.qr_caption"), width=360)
    st.html(
        "<style>.attnviz-class-code{font:700 4.5rem/1.1 ui-monospace,monospace;"
        "letter-spacing:.25em;margin:.2em 0}</style>"
    )
    st.subheader(ui.tr("classroom.summary"))
    if rows:
        st.dataframe(rows, hide_index=True)
        st.download_button(
            ui.tr("classroom.summary_csv"),
            views.summary_csv(rows),
            file_name=f"class-{code}.csv",
            mime="text/csv",
        )
    else:
        st.caption(ui.tr("classroom.summary_empty"))
    with st.expander(ui.tr("classroom.teacher_link")):
        st.caption(ui.tr("classroom.teacher_link_note"))
        st.code(teacher_link(code, key), language=None)
    said = own().pop(CLASS_ERROR, None)
    if said:
        st.error(said)
    st.button(ui.tr("classroom.end"), on_click=_end, args=(code, key))
