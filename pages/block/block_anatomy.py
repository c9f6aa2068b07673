"""Block anatomy (S13, S14): flow, formula, stream norms per step, LN per token."""

import numpy as np
import pandas as pd
import streamlit as st

import ui
from attnviz.block import NORMS
from attnviz.charts import block as charts
from attnviz.lessons import layernorm
from attnviz.lessons.block_latex import BLOCK, LAYER_NORM
from attnviz.limits import MAX_H, MAX_SEED

compute = st.cache_data(max_entries=64, show_spinner=False)(layernorm.run)

st.title(ui.tr("block_anatomy.title"))
st.markdown(ui.tr("block_anatomy.intro"))
left, right = st.columns([1, 2])
with left:
    norm = ui.select(
        "norm",
        ui.tr("block_anatomy.norm"),
        NORMS,
        "post",
        labels="names.norm_",
        radio=True,
    )
    text = ui.text("text", ui.tr("block_anatomy.text"), ui.tr("block_anatomy.default_text"), 300)
    D = int(ui.select("D", ui.tr("block_anatomy.D"), [str(2**k) for k in range(3, 10)], "64"))
    H = ui.select(
        "H",
        ui.tr("block_anatomy.H"),
        [str(h) for h in range(1, MAX_H + 1) if D % h == 0],
        "4" if D >= 4 else "1",
    )
    ff = int(ui.select("ff", ui.tr("block_anatomy.ff"), ["1", "2", "4"], "4", radio=True))
    seed = ui.number("seed", ui.tr("block_anatomy.seed"), 0, MAX_SEED, 0)
try:
    r = compute(text, norm, D, int(H), ff * D, seed)
except ValueError as err:
    ui.error_box(err)
    st.stop()
with right:
    st.subheader(ui.tr("block_anatomy.flow"))
    ui.plot(
        charts.flow(r.steps, r.shapes, height=260 if ui.presenting() else 200),
        "flow",
        f"block_{norm}_flow",
    )
    st.markdown(f"**{ui.tr('block_anatomy.formula')}**")
    st.latex(BLOCK[norm])
    st.latex(LAYER_NORM)
    st.subheader(ui.tr("block_anatomy.norms"))
    ui.plot(
        charts.stream_norms(r.norms, r.steps, r.tokens, y_title=ui.tr("block_anatomy.length")),
        "norms",
        f"block_{norm}_norms",
    )
    st.caption(ui.tr("block_anatomy.norms_note", sqrtD=np.sqrt(D)))
    labels = [f"{i}:{t}" for i, t in enumerate(r.tokens)]
    ui.csv_button(
        pd.DataFrame(r.norms.T, index=labels, columns=r.steps), f"block_{norm}_norms", "csv_norms"
    )
    st.subheader(ui.tr("block_anatomy.ln_heading"))
    if r.ln_hat is None:
        st.info(ui.tr("block_anatomy.no_ln"))
    else:
        i = (
            ui.slider("token", ui.tr("block_anatomy.ln_token"), 0, len(r.tokens) - 1, 0)
            if len(r.tokens) > 1
            else 0
        )
        names = (ui.tr("block_anatomy.before"), ui.tr("block_anatomy.after"))
        ui.plot(
            charts.ln_token(r.ln_in[i], r.ln_hat[i], (f"{labels[i]}: {names[0]}", names[1])),
            "ln_token",
            f"ln_token{i}",
        )
        st.caption(ui.tr("block_anatomy.ln_note"))
        st.dataframe(r.stats, hide_index=True)
        ui.csv_button(r.stats.set_index("token"), f"block_{norm}_ln_stats", "csv_ln")
