"""One stop of the tour (pages/start/tour.py): its claim and equation, the question, the
answer, then the verdict and the figure computed from the same configuration as the page
its link opens; and the summary of the answers.

Presenting, a stop holds its answer back (students answer by a show of hands) until the
teacher reveals it.
"""

from __future__ import annotations

import streamlit as st

import ui
from attnviz.lessons import tour
from pages.start import tour_class
from ui import tour_keys, way_back
from ui.keys import PRESENT, TOUR_ANSWERS, TOUR_REVEALED, TOUR_SEED, TOUR_STOP, own


def _record(claim: str, seed: int, ex: tour.Exercise, pick_key: str) -> None:
    """The form's callback: keep the answer picked (none picked: nothing is kept)."""
    choice = st.session_state.get(pick_key)
    if choice is not None:
        answer = dict(seed=seed, choice=choice, right=ex.is_right(choice))
        own().setdefault(TOUR_ANSWERS, {})[claim] = answer
        tour_keys.answered()


def _reveal(claim: str, seed: int) -> None:
    own().setdefault(TOUR_REVEALED, set()).add((claim, seed))
    tour_keys.answered()


def _compute(ask: tour.Ask, seed: int):
    cfg = ui.config(ask.config, lang=ui.lang(), seed=seed)
    if ask.slow:  # seconds: a bar, as its page shows it
        label = lambda f: ui.tr("depth_gradients.computing", pct=100 * f)  # noqa: E731
        return cfg, ui.compute_with_progress(ask.run, cfg, label)
    return cfg, ui.compute(ask.run, cfg)


def links(stop: tour.Stop, seed: int) -> None:
    """The stop's page, opened in the state the figure was drawn in (and the mode the tour is
    in), then the further pages it names; each of them links back to this stop (``?from=``,
    ui/way_back.py), as do the pages after the tour."""
    mode = way_back.left_at(stop.claim, seed) | ({PRESENT: "true"} if ui.presenting() else {})
    label = ui.tr("tour.open", page=ui.tr(f"{stop.page}.nav"), state=stop.state)
    with st.container(key="tour_links"):  # as large as the prose: ui/tour*.css
        st.page_link(stop.script, label=label, icon="➡️", query_params=stop.query() | mode)
        for page, params in stop.more:
            label = ui.tr("tour.open_more", page=ui.tr(f"{page}.nav"))
            query = dict(params) | mode
            st.page_link(tour.PAGE_FILES[page], label=label, icon="➡️", query_params=query)


def show(claim: str, seed: int, land: bool = False) -> None:
    ask = tour.ASKS[claim]
    stop = tour.stop(claim, ui.lang(), seed)
    key = claim.lower()
    tour_keys.keyboard(land)
    if ui.presenting():  # the claim and its equation folded: the question, its choices and,
        # revealed, the verdict and the figure's top fit a 720-line projector
        with st.expander(f"**{claim}** · {ui.tr('tour.claim')}"):
            st.markdown(ui.tr(f"tour.{key}_claim"))
            st.latex(stop.formula)
    else:
        st.markdown(f"**{claim}** · {ui.tr(f'tour.{key}_claim')}")
        st.latex(stop.formula)
    cfg, r = _compute(ask, seed)
    try:
        ex = ask.ask(cfg, r, ui.lang(), seed)
    except tour.NoQuestion:  # this example ties two answers: none could be marked right alone
        st.info(ui.tr("tour.tied"))
        tour_class.panel(claim, seed, None, False)  # the class follows to a stop with no vote
        figure(ask, cfg, r, seed, f"tour_{key}", f"tour_{key}_seed{seed}")
        links(stop, seed)
        return
    with st.container(key="tour_question"):
        if ex.given:  # the example's values, read before the question that reasons from them
            st.markdown(ex.given)
        st.markdown(f"**{ui.tr('tour.question')}** {ex.question}")
    answer = own().get(TOUR_ANSWERS, {}).get(claim)
    answer = answer if answer and answer["seed"] == seed else None
    revealed = (claim, seed) in own().get(TOUR_REVEALED, set())
    revealed = tour_class.panel(claim, seed, ex, revealed)  # a class's rounds, if one runs
    if answer is None and not revealed:
        if ui.presenting():  # two columns: A | B, then C | D
            columns = st.columns(2)
            for i, c in enumerate(ex.choices):
                columns[i % 2].markdown(f"{ex.letter(c.key)}. {c.label}")
            st.button(
                ui.tr("tour.reveal"),
                on_click=_reveal,
                args=(claim, seed),
                type="primary",
                key="tour_reveal",
            )
        else:
            pick_key = f"tour_pick_{claim}_{seed}"
            with st.form(f"tour_form_{claim}_{seed}", border=False):
                st.radio(
                    ui.tr("tour.your_answer"),
                    [c.key for c in ex.choices],
                    format_func=ex.label,
                    index=None,
                    key=pick_key,
                )
                st.form_submit_button(
                    ui.tr("tour.check"), on_click=_record, args=(claim, seed, ex, pick_key)
                )
            st.caption(ui.tr("tour.keys"))
        links(stop, seed)
        return
    verdict(ex, answer)
    figure(ask, cfg, r, seed, f"tour_{key}", f"tour_{key}_seed{seed}")
    links(stop, seed)


def verdict(ex: tour.Exercise, answer: dict | None) -> None:
    """Right or wrong (or, revealed, the answer alone), and why."""
    with st.container(key="tour_verdict"):
        _verdict(ex, answer)


def _verdict(ex: tour.Exercise, answer: dict | None) -> None:
    right = ex.label(ex.right)
    if answer is None:
        st.info(tour.sentences(ui.lang(), ui.tr("tour.answer_is", answer=right), ex.why))
    elif answer["right"]:
        st.success(tour.sentences(ui.lang(), ui.tr("tour.right", answer=right), ex.why))
    else:
        yours = ex.label(answer["choice"])
        wrong = ui.tr("tour.wrong", yours=yours, answer=right)
        st.error(tour.sentences(ui.lang(), wrong, ex.why))


def _back_to(claim: str, seed: int) -> None:
    st.session_state[TOUR_STOP], st.session_state[TOUR_SEED] = claim, seed


def summary(claims: list[str]) -> None:
    """Which stops were answered right, with a way back to each that was not."""
    st.subheader(ui.tr("tour.summary_title"))
    answers = own().get(TOUR_ANSWERS, {})
    right = sum(a["right"] for a in answers.values())
    st.markdown(ui.tr("tour.score", right=right, answered=len(answers), n=len(claims)))
    for claim in claims:
        a = answers.get(claim)
        state = "not_answered" if a is None else ("was_right" if a["right"] else "was_wrong")
        row = st.columns([1, 3])
        row[0].markdown(f"**{claim}** · {ui.tr(f'tour.{state}')}")
        if a is not None and not a["right"]:
            row[1].button(
                ui.tr("tour.back_to", claim=claim),
                key=f"tour_back_{claim}",
                on_click=_back_to,
                args=(claim, a["seed"]),
            )


def figure(ask: tour.Ask, cfg: object, r: object, seed: int, key: str, name: str) -> None:
    """The stop's figure for this example, its document built once per process for the
    setting, example and language (ui.plot with a builder): a class arriving at a stop
    together draws it once, not once a student."""
    language = ui.lang()
    ui.plot(lambda: ask.figure(cfg, r, language, seed), key, name)
