"""The multi-head page's right-hand side, one ``st.fragment`` drawn by
pages/attention/multihead.py: weights, scores or contributions, the grid of every head
(``multihead_grid``; a click enlarges one), the head enlarged (a click follows a weight
through its formula) and a head's query–key space. Its controls and clicks rerun only it,
and the head enlarged is a fragment inside it: a click on a cell reruns only that. Strings
are ``multihead.*`` and ``steps.*``; heads and positions are shown counting from 1.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from attnviz.errors import InputError
from attnviz.formulas import contributions
from attnviz.i18n import plain
from attnviz.lessons import multihead, multihead_probe
from attnviz.norms import NORMS
from attnviz.scores import SCORES
from attnviz.text import token_labels
from pages.attention import multihead_grid
from ui import mosaic, steps
from ui.compute import compute
from ui.export import csv_button, file_stem, map_table, maps_table
from ui.keys import FOLLOW, HEAD
from ui.language import tr
from ui.layout import presenting
from ui.page_run import fragment
from ui.widgets import select, slider, toggle


@fragment
def explore(cfg: multihead.Config, r: multihead.Result) -> None:
    """The grid of ``r``'s heads (a click enlarges one) and ``head``: the head enlarged
    (``cfg`` as the page built it)."""
    show = select("show", tr("multihead.show"), SHOWN, "weights", labels="multihead.", radio=True)
    if show == "contributions":  # what a cell of these maps is, and how to read them
        st.latex(contributions.sent(bias=False, layer=False))
        st.caption(tr("multihead.contributions_help"))
    view = _shown(r, show)
    h = slider(HEAD, tr("multihead.big_head"), 1, cfg.H, 1) - 1
    multihead_grid.grid(cfg, r, show, *view[:2], h)
    head(cfg, r, show, view, h)
    mosaic.keep_in_url()


View = tuple[np.ndarray, tuple[float, float], dict | None]
SHOWN = ("weights", "scores", "contributions")  # a_ij, s_ij, ‖a_ij f_h(x_j)‖


def _shown(r: multihead.Result, show: str) -> View:
    """The maps shown (weights, scores or contributions), their colour span and the marks on
    its bar: colours span the data, so near-uniform maps still show their structure; 1/N is
    marked on the weights. Contributions' rows do not sum to 1: they are drawn as they are."""
    shown = {"weights": r.weights, "scores": r.scores, "contributions": r.norms}[show]
    lo, hi = (float(shown.min()) if show == "scores" else 0.0), float(shown.max())
    return shown, (lo, hi), ({1 / len(r.tokens): "1/N"} if show == "weights" else None)


@fragment
def head(cfg: multihead.Config, r: multihead.Result, show: str, view: View, h: int) -> None:
    """Head h enlarged with its downloads (``view``: the maps shown, as ``_shown``), and on
    demand the weight followed and the query–key space: a fragment of its own, so that a
    click on a cell reruns only this."""
    N = len(r.tokens)
    shown, (lo, hi), uniform = view
    title = tr("multihead.head", h=h + 1)
    st.subheader(tr("multihead.head_title", h=h + 1))
    map_slot = st.container()  # drawn once the weight followed, if any, is known
    labels = token_labels(r.tokens, escape=False)
    what = tr(f"multihead.{show}")
    one, every = tr("multihead.dl_head", h=h + 1, what=what), tr("multihead.dl_all", what=what)
    # built on a click: a frame of N string labels costs ms on every rerun
    csv_button(map_table(shown[h], labels, labels), one, "csv_head")
    csv_button(maps_table(shown, labels, plain(what), ("head",)), every, "csv_all")
    # the weight followed (row i, column j) is outlined only while it is used: the steps or
    # the query–key space; a click on a cell picks it and turns the steps on
    follow = toggle(FOLLOW, tr("steps.show_steps"))
    qkview = toggle("qkview", tr("steps.show_qk", h=h + 1))
    picked = mosaic.picked(N) if follow or qkview else None
    i, j = picked or (0, 0)
    with map_slot:
        look = dict(
            title=title,
            zmin=lo,
            zmax=hi,
            marks=uniform,
            x_title=tr("multihead.key"),
            y_title=tr("multihead.query"),
            height=720 if presenting() else 520,
        )
        mosaic.enlarged_map(
            shown[h],
            r.tokens,
            r.tokens,
            key="head_map",
            name=file_stem(one),
            picked=picked,
            on_pick=mosaic.pick_cell,
            notes=[tr("multihead.map_help")],
            **look,
        )
    # drawn on demand (a click on a cell turns the steps on): the page redraws lean
    if follow:
        s = compute(multihead_probe.follow, multihead_probe.Pick(cfg, h, i, j))
        notes = [tr(f"steps.cell_{show}", i=i + 1, j=j + 1, value=float(shown[h, i, j]))]
        if NORMS[cfg.norm].ln_before_sublayer:  # the steps' x_i is what attention reads
            notes.insert(0, tr("multihead.pre_ln_steps"))
        steps.follow(s.steps, s.formulas, r.tokens, where=title, notes=notes)
    if qkview:
        st.subheader(tr("steps.qk_title", h=h + 1))
        k, centre = steps.qk_controls("space")
        try:
            probe = multihead_probe.Probe(cfg, h, i, k, centre)
        except InputError:  # the score reads no key: there is no query–key space
            st.info(tr(SCORES[cfg.score].qk_note))
        else:
            st.caption(tr("steps.qk_intro"))
            steps.qk_view(compute(multihead_probe.qk, probe), key="space")
    mosaic.keep_in_url()
