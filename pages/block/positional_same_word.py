"""pages/block/positional.py: the same word at two positions (S16), its two attention rows
without and with positions, and their difference on its own scale."""

import pandas as pd
import streamlit as st

import ui
from attnviz.charts import positional as charts
from attnviz.lessons import positional
from attnviz.limits import MAX_SEED
from attnviz.positional import KINDS, MODES
from attnviz.text import token_labels

QK_SCALES = ["0.5", "1", "2", "3", "4", "8"]  # s of the head's W^Q, W^K


def draw() -> None:
    """The section's controls, its head's formulas, the rows, their difference and its CSV."""
    st.subheader(ui.tr("positional.same_word"))
    text = ui.text("text", ui.tr("positional.text"), ui.tr("positional.default_text"), 300)
    mode = ui.select(
        "mode",
        ui.tr("positional.mode"),
        MODES,
        "add",
        labels="names.mode_",
        radio=True,
    )
    st.caption(ui.tr(f"positional.same_word_{mode}", D=positional.SAME_WORD_D))  # not the slider's
    head_seed = ui.number(
        "head_seed", ui.tr("positional.head_seed"), 0, MAX_SEED, positional.SAME_WORD_SEED
    )
    default_s = f"{positional.SAME_WORD_SCALE:g}"
    qk = float(ui.choice_slider("s", ui.tr("positional.qk_scale"), QK_SCALES, default_s))
    st.caption(ui.tr("positional.scale_note"))
    same = ui.config(positional.SameWord, text=text, mode=mode, seed=head_seed, qk_scale=qk)
    two = ui.compute(positional.same_word, same)
    if two is None:
        st.info(ui.tr("positional.no_repeat"))
        ui.stop()
    ui.prose(*map(ui.display, two.formulas))
    word, i, j = two.tokens[two.i], two.i + 1, two.j + 1  # positions from 1
    labels = {
        pe: ui.tr("positional.with" if KINDS[pe].present else "positional.without")
        for pe in two.rows
    }
    # one y range for both, compared side by side on a desk; presenting, one above the other
    # (each half was ~270 px, its token labels at 20 px too crowded to all be shown)
    y_max = 1.05 * max(float(two.rows[pe].max()) for pe in ("none", "sinusoidal"))
    cols = [st.container(), st.container()] if ui.presenting() else st.columns(2)
    for col, pe in zip(cols, ("none", "sinusoidal"), strict=True):
        label = labels[pe]
        rows = {ui.tr("positional.at", k=k): two.rows[pe][n] for n, k in enumerate((i, j))}
        with col:
            ui.plot(
                lambda rows=rows, label=label: charts.rows(
                    rows,
                    two.tokens,
                    y_title=ui.tr("positional.weight"),
                    title=ui.tr("positional.rows_title", word=word, i=i, j=j, pe=label),
                    y_max=y_max,
                ),
                f"rows_{pe}",
                f"rows_{pe}",
            )
    ui.plot(
        lambda: charts.difference(
            {labels[pe]: d for pe, d in two.difference.items()},
            two.tokens,
            y_title=ui.tr("positional.delta"),
            title=ui.tr("positional.delta_title", word=word, i=i, j=j),
        ),
        "rows_delta",
        "rows_difference",
    )
    sin = two.diff["sinusoidal"]
    ratio = sin / two.uniform
    shown = dict(
        none=two.diff["none"], sin=sin, uniform=two.uniform, ratio=ratio, N=len(two.tokens)
    )
    st.markdown(ui.tr("positional.row_diff", **shown))
    keys = pd.Index(token_labels(two.tokens, escape=False), name=ui.tr("positional.key"))
    ui.csv_button(lambda: two.table.set_axis(keys), ui.tr("positional.csv_rows"), "csv_rows")
