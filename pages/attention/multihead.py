"""Multi-head self-attention (S9–S12): every head's map, one weight followed through its
formula, and a head's query–key space.

The controls on the left change the block and rerun the page; everything on the right
(weights or scores, the head enlarged, the weight followed, the query–key picture) is one
``st.fragment``, drawn by ``multihead_views`` beside it: its controls and clicks rerun only it.
"""

import pandas as pd
import streamlit as st

import ui
from attnviz.lessons import multihead
from attnviz.limits import MAX_H, MAX_N, MAX_SEED, MAX_TEXT_CHARS, max_d_head
from attnviz.norms import NORMS
from attnviz.scores import SCORES
from pages.attention import multihead_views as views
from ui.keys import LAST_H, own

WIDTHS = ["4", "8", "16", "24", "32", "48", "64", "96", "128", "192", "256", "384", "512"]
WIDTHS += ["768", "1024"]  # each has divisors among H = 1 … 32
QK_SCALES = ["0.25", "0.5", "1", "2", "3", "4", "8"]


if ui.presenting():  # on a projector the seven lines of it pushed the first map off screen
    st.title(ui.tr("multihead.title"))
    with st.expander(ui.tr("multihead.intro_label")):
        st.markdown(ui.tr("multihead.intro"))
else:
    ui.prose(ui.tr("multihead.intro"), heading=ui.tr("multihead.title"), level=1)
left, right = ui.split([2, 3])  # the formulas need two fifths
with left:
    example = ui.tr("multihead.default_text")
    text = ui.text("text", ui.tr("multihead.text"), example, MAX_TEXT_CHARS, max_tokens=MAX_N)
    D = int(ui.choice_slider("D", ui.tr("multihead.D"), WIDTHS, "64"))
    H = ui.slider("H", ui.tr("multihead.H"), 1, MAX_H, 8)
    auto = ui.toggle("auto", ui.tr("multihead.d_head_auto"), True)
    top = max_d_head(H)  # H·D′ is capped: the projections' memory
    d_head = None if auto else ui.slider("d_head", ui.tr("multihead.d_head"), 1, top, min(8, top))
    heads_name = ui.spec_labels(SCORES, "head_label")  # a head divides by √D′, not √D
    # presenting, a radio: a select box cut its choice's name at this column's edge
    menu = dict(radio=True, horizontal=False) if ui.presenting() else {}
    score = ui.select("score", ui.tr("multihead.score"), SCORES, "scaled_dot", heads_name, **menu)
    causal = ui.toggle("causal", ui.tr("multihead.causal"))
    pe, pe_mode = ui.positions("multihead", "sinusoidal")
    norm = ui.select("norm", ui.tr("multihead.norm"), NORMS, "post", labels=ui.spec_labels(NORMS))
    seed = ui.number("seed", ui.tr("multihead.seed"), 0, MAX_SEED, 0)
    growth = SCORES[score].growth  # what s does to this score: × s², × s, or bounded
    qk = float(ui.choice_slider("qk", ui.tr(f"multihead.qk_scale_{growth}"), QK_SCALES, "1"))
    fields = dict(text=text, D=D, H=H, d_head=d_head, score=score, causal=causal)
    fields |= dict(pe=pe, pe_mode=pe_mode, norm=norm, seed=seed, qk_scale=qk)
    # a step of the H slider to a value that does not divide the width moves on past it
    last = own().get(LAST_H)
    cfg, moved = ui.config(multihead.Config.fit, came_from=last, **fields)
    own()[LAST_H] = cfg.H
    if moved:  # H moved to a divisor: the slider shows it, and the next run says why
        ui.settle(ui.explain(moved), H=cfg.H)
    ui.show_settled()
    r = ui.compute(multihead.run, cfg)
    st.caption(ui.tr("multihead.d_head_is", width=r.width, H=cfg.H, d_head=r.d_head))
    if r.d_head >= r.width:
        st.warning(ui.tr("multihead.d_head_wide", d_head=r.d_head, width=r.width))
    ui.formula_lines(r.formulas)
    st.caption(ui.tr("multihead.composed"))  # S10: W^Q W_h^Q is the W_h^Q drawn
    # the shapes on demand: a popover draws its table only while it is open (an expander
    # draws what it hides), so its typeset cells are not drawn again on every change of H.
    # Presenting, an expander under both columns: the table is wider than this column, and
    # opened over the figures, the popover hid the map's row labels
    if not ui.presenting():
        with st.popover(ui.tr("multihead.pipeline"), icon=":material/table_rows:"):
            ui.formula_table(r.pipeline)
    lo, hi, qk = r.entropy.min(), r.entropy.max(), cfg.qk_scale
    root, factor = r.d_head**0.5, r.score_factor
    st.markdown(ui.tr(f"multihead.{r.reading}", lo=lo, hi=hi, qk=qk, root=root, factor=factor))
    entropy = "multihead.col_entropy_causal" if cfg.causal else "multihead.col_entropy"

    def sharpness() -> pd.DataFrame:
        return pd.DataFrame(
            {ui.tr(entropy): r.entropy, ui.tr("multihead.col_max"): r.max_weight},
            index=pd.RangeIndex(1, cfg.H + 1, name=ui.tr("multihead.col_head")),  # h, from 1
        )

    ui.number_table(sharpness, decimals=4)  # its index the head h

with right:
    views.explore(cfg, r)
if ui.presenting():
    with st.expander(ui.tr("multihead.pipeline"), icon=":material/table_rows:"):
        ui.formula_table(r.pipeline)
