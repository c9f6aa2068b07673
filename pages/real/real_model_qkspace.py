"""The real-model page's query–key pictures of head h, drawn under its map (inside
``real_model_views.explore``, the map's ``st.fragment``): on the sentence typed, then pooled
with more sentences typed in an area of several lines. Strings are ``real_model.*`` and
``steps.*``; layers, heads and positions are shown counting from 1.
"""

from __future__ import annotations

import streamlit as st

from attnviz.errors import InputError
from attnviz.lessons import real_model
from attnviz.lessons.real_model import probe as real_probe
from attnviz.limits import MAX_TEXT_CHARS
from ui import steps
from ui.compute import compute
from ui.language import tr
from ui.messages import error_box
from ui.widgets import text


class TextArea:
    """``ui.text`` draws with ``where.text_input``: this draws the same URL-kept text as an
    area of several lines."""

    text_input = staticmethod(st.text_area)


def space(cfg: real_model.Config, i: int) -> None:
    """Head h's query–key picture on the sentence, then pooled with the sentences typed."""
    layer, head = cfg.layer, cfg.head
    st.subheader(tr("real_model.qk_title", l=layer + 1, h=head + 1))
    st.caption(tr("steps.qk_intro"))
    k, centre = steps.qk_controls("space")
    q = compute(
        real_probe.qk, real_probe.Probe(cfg.text, layer, head, i, k, centre, model=cfg.model)
    )
    steps.qk_view(q, key="space")
    st.subheader(tr("real_model.pool_title", l=layer + 1, h=head + 1))
    lines = text(
        "pool",
        tr(
            "real_model.pool_text",
            lines=real_probe.MAX_POOLED_LINES,
            tokens=real_probe.MAX_POOLED_TOKENS,
        ),
        "\n".join(real_probe.POOLED),
        MAX_TEXT_CHARS,
        where=TextArea,
    )
    more = tuple(line.strip() for line in lines.splitlines() if line.strip())
    try:
        probe = real_probe.Probe(cfg.text, layer, head, i, k, centre, more, cfg.model)
    except InputError as err:  # too many lines or tokens: say so, keep the rest of the page
        error_box(err)
        return
    if more:
        pooled = compute(real_probe.qk, probe)
        names = [tr("steps.qk_sentence", s=n + 1) for n in range(len(more) + 1)]
        st.caption(tr("real_model.pool_caption"))
        csv = tr("real_model.dl_pooled")
        steps.qk_view(pooled, key="pooled", sentence_names=names, csv_label=csv)
    else:
        st.caption(tr("real_model.pool_empty"))
