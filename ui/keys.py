"""Every key of ``st.session_state`` that the app's code reads or writes.

A widget's key is also its URL parameter (``?key=``); those named here are the widgets
that code reads or moves besides the widget itself (a click on a map moves the sliders
i and j). The app's own state starts with "_", apart from the training race's.

That own state is not a key of ``st.session_state`` each but one entry, ``OWN``, a plain
dict reached through :func:`own`: every keyed widget reads each session-state key on each
run (Streamlit's ``filtered_state``), so a run costs O(widgets × keys), and 15 of the
multi-head page's 37 keys were the app's own. Widgets' keys stay session-state keys.
"""

import streamlit as st

from .this_run import once

OWN = "_attnviz"  # the one session-state entry holding every key below that starts with "_"


def own() -> dict:
    """This session's own state (``OWN``): the keys below that start with "_" live here,
    not in ``st.session_state`` itself; it persists as a session-state value does."""
    return once(OWN, lambda: st.session_state.setdefault(OWN, {}))


# widgets that code also reads or moves
LANG = "lang"  # the language switch (app.py)
PRESENT = "present"  # presentation mode (app.py)
PICK_I, PICK_J = "i", "j"  # the picked weight's query and key position, from 1 (a click on the map)
FOLLOW = "follow"  # the picked weight's steps are shown (a click on the map turns it on)
LAYER, HEAD = "layer", "head"  # the real model's layer and head, from 1 (a click on a tile)
RACE_FRAME = "race_frame"  # the training race's step slider
# the tour's stop and its example's seed (its buttons move them): not "seed", the key of
# other pages' widgets, whose state a page opened from the tour would meet
TOUR_STOP, TOUR_SEED = "stop", "example"

# the URL and the controls of a run (ui.page_run, ui.widgets, ui.share)
BOUND = "_url_keys"  # {widget key: (default, value drawn)} of this run, for the URL
NOTES = "_url_notes"  # container for notices about URL values
FIGURES = "_figures"  # the column of this run's figures, where a message of bad input goes
PAGE_RUN = "_page_run"  # True while a run of the whole page draws (not a fragment's own run)
LINKED = "_url_linked"  # this run has written its URL and share link
URL_KEPT = "_url_kept"  # a run of this session has ended with its URL written (ui.share)
OPTIONS = "_url_options"  # {select key: its options}, so tests can sweep them
SELECT_KINDS = "_select_kinds"  # {select key: drawn as a radio}, the last run's
SELECT_LABELS = "_select_labels"  # {select key: its options' labels}, the last run's
EXAMPLES = "_examples"  # {text key: the example text it was last drawn with}
TEXT_CUT = "_text_cut"  # the text input whose value was just cut to its cap
SHOWN_IN = "_lang_shown"  # the language the last run drew its controls in
RELABEL = "_relabel"  # this run's language is not the last run's
SETTLE = "_settle"  # controls to move before the next run draws them, and why
SETTLED = "_settled"  # why this run's controls were moved (shown by the page)

# the multi-head page
LAST_H = "_multihead_H"  # the H the last run drew: a step of H that divides nothing moves on

# the components (ui.components)
ORDER = "_component_order"  # (session id, {component key: (digest, number)})

# the training race (pages/block/training_race_views.py; the positional page reads it)
RACE = "race"  # the latest race: its config, records, frames, whether it has ended
RACE_POSITIONS = "race_pe"  # the encodings the latest race learned (LearnedPositions)

# the tour (pages/start/tour*.py; ui.way_back's way back to it)
TOUR_ANSWERS = "_tour_answers"  # {claim: {"seed", "choice", "right"}}: the latest answer
TOUR_REVEALED = "_tour_revealed"  # {(claim, seed)} whose answer the teacher has revealed
TOUR_ANSWERED = "_tour_answered"  # how many answers or reveals so far: the verdict takes focus
# the way back (ui.way_back): the stop a page was opened from, kept in its URL as a control is
# (?from=S9-2), and the stop whose section a page has landed at since
TOUR_FROM = "from"
TOUR_LANDED = "_tour_landed"

# a class on the tour (pages/start/classroom*.py, pages/start/tour_class.py, ui.classroom)
CLASS_CODE = "class"  # the class code input: kept in the URL, the student link's one parameter
CLASS_TEACHER = "_class_teacher"  # {"code", "key"}: the class this session teaches
CLASS_STUDENT = "_class_student"  # {code: this browser's anonymous id in that class}
CLASS_CLIENT = "_class_client"  # this session's random name, for the limit on wrong codes
CLASS_SEEN = "_class_seen"  # (code, stop, example, phase) the student's screen was drawn for
CLASS_LAST = "_class_last"  # the class's last state read: kept through a store outage
CLASS_COUNTS = "class_show_counts"  # the teacher's "show the counts" toggle
CLASS_ERROR = "_class_error"  # the last refusal of a teacher's button, shown once
CLASS_SAID = "_class_said"  # {ballot widget: why its last vote was refused}
