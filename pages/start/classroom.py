"""A class on the tour, peer instruction's way: students join by the code, the link or the QR
code, and their screen follows the teacher's stop, example and round; each votes alone in
round 1, again after discussing in round 2, and sees both rounds beside the figure when the
teacher reveals. The teacher's own view (opened by the teacher's link, whose key moves into
the session and out of the URL) shows the code, the QR code and the summary.

Views: pages/start/classroom_student.py (a student), classroom_teacher.py (the teacher).
"""

import streamlit as st

import ui
from attnviz import classroom as cr
from pages.start import classroom_student, classroom_teacher
from ui import classroom
from ui.keys import CLASS_CODE, CLASS_TEACHER, own

# The teacher's link carries the key once: into the session, out of the URL, before anything
# else reads or writes the URL (the share link, this page's own URL)
key = st.query_params.get("key")
if key is not None:
    del st.query_params["key"]

st.title(ui.tr("classroom.title"))
typed = ui.text(CLASS_CODE, ui.tr("classroom.code"), "", 12)
code = None
if typed.strip():
    try:
        code = cr.clean_code(typed)
    except cr.ClassError as err:
        st.error(classroom.say(err))

if key is not None and code:
    try:
        ok = classroom.store().is_teacher(code, key)
    except cr.ClassError as err:
        st.error(classroom.say(err))
    else:
        if ok:
            own()[CLASS_TEACHER] = {"code": code, "key": key}
        else:
            st.error(classroom.say(cr.BadKey()))
elif key is not None:
    st.error(classroom.say(cr.BadKey()))

teacher = classroom.teaching()
if code and teacher and teacher["code"] == code:
    classroom_teacher.show(teacher)
elif code:
    classroom_student.show(code)
else:
    st.markdown(ui.tr("classroom.how_to_join"))
