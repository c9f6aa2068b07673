"""Block anatomy (S13, S14): flow, formula, stream norms per step, LN per token."""

import pandas as pd
import streamlit as st

import ui
from attnviz.charts import block_anatomy as charts
from attnviz.lessons import block_anatomy
from attnviz.limits import MAX_SEED
from attnviz.norms import NORMS
from attnviz.text import token_labels

WIDTHS = [str(2**k) for k in range(3, 10)]  # D = 8 … 512
LN_DECIMALS = 4  # places of the LN statistics shown (the CSV keeps every digit)

ui.prose(ui.tr("block_anatomy.intro"), heading=ui.tr("block_anatomy.title"), level=1)
st.caption(ui.tr("block_anatomy.symbols"))
left, right = ui.split([1, 2])
with left:
    norm = ui.select(
        "norm",
        ui.tr("block_anatomy.norm"),
        NORMS,
        "post",
        labels=ui.spec_labels(NORMS),
        radio=True,
    )
    text = ui.text("text", ui.tr("block_anatomy.text"), ui.tr("block_anatomy.default_text"), 300)
    D = int(ui.choice_slider("D", ui.tr("block_anatomy.D"), WIDTHS, "64"))
    H = ui.select("H", ui.tr("block_anatomy.H"), [str(h) for h in block_anatomy.heads(D)], "4")
    ff = ui.select("ff", ui.tr("block_anatomy.ff"), ["1", "2", "4"], "4", radio=True)
    seed = ui.number("seed", ui.tr("block_anatomy.seed"), 0, MAX_SEED, 0)
    fields = dict(text=text, norm=norm, D=D, H=int(H), ff=int(ff), seed=seed)
    cfg = ui.config(block_anatomy.Config, **fields)
r = ui.compute(block_anatomy.run, cfg)
with right:
    st.subheader(ui.tr("block_anatomy.flow"))
    size = dict(row_px=62, font_px=20) if ui.presenting() else {}
    ui.plot(
        lambda: charts.flow(r.steps, r.shapes, r.residuals, **size), "flow", f"block_{norm}_flow"
    )
    st.caption(ui.tr("block_anatomy.flow_note"))
    ui.prose(f"**{ui.tr('block_anatomy.formula')}**", *map(ui.display, r.formulas))
    st.subheader(ui.tr("block_anatomy.norms"))
    ui.plot(
        lambda: charts.stream_norms(
            r.norms,
            r.steps,
            r.tokens,
            y_title=ui.tr("block_anatomy.length"),
            # presenting, the turned step names and a legend at 20 px had left the lines
            # about 130 px, and the legend a scroll bar
            height=560 if ui.presenting() else 380,
            upright_steps=ui.presenting(),
        ),
        "norms",
        f"block_{norm}_norms",
    )
    first, last = r.norms[0].mean(), r.norms[-1].mean()  # the block's input, its output
    st.caption(ui.tr(f"block_anatomy.norms_{norm}", sqrtD=cfg.D**0.5, first=first, last=last))
    ui.csv_button(
        lambda: pd.DataFrame(
            r.norms.T, index=token_labels(r.tokens, escape=False), columns=r.steps
        ),
        ui.tr("block_anatomy.csv_norms", norm=ui.tr(f"block_anatomy.short_{norm}")),
        "csv_norms",
        label=ui.tr("block_anatomy.dl_norms", norm=ui.tr(f"block_anatomy.short_{norm}")),
    )
    st.subheader(ui.tr("block_anatomy.ln_heading"))
    if r.ln_hat is None:
        st.info(ui.tr("block_anatomy.no_ln"))
    else:
        n = len(r.tokens)  # tokens x_1 … x_N, numbered from 1 as in the chapter
        i = ui.slider("token", ui.tr("block_anatomy.ln_token"), 1, n, 1)
        before = ui.tr("block_anatomy.before", token=token_labels(r.tokens)[i - 1])
        ui.plot(
            lambda: charts.ln_token(
                r.ln_in[i - 1],
                r.ln_hat[i - 1],
                (before, ui.tr("block_anatomy.after")),
                x_title=ui.tr("block_anatomy.feature"),
            ),
            "ln_token",
            f"ln_token{i}",
        )
        st.caption(ui.tr("block_anatomy.ln_note"))
        names = {c: ui.tr(f"block_anatomy.col_{c}") for c in r.stats.columns}
        token = names[r.stats.columns[0]]

        def stats():
            return r.stats.rename(columns=names).set_index(token)

        # to LN_DECIMALS places, the scale said under it: a mean of 1e-8 after LN is the 0
        # it stands for (7.451e-9 hid the point), never "−0.0000"
        ui.number_table(lambda: stats().round(LN_DECIMALS) + 0.0, decimals=LN_DECIMALS)
        tiny = f"{0.5 * 10**-LN_DECIMALS:.{LN_DECIMALS + 1}f}"  # 0.00005, not 5e-05
        st.caption(ui.tr("block_anatomy.ln_scale", d=LN_DECIMALS, tiny=tiny))
        ui.csv_button(stats, ui.tr("block_anatomy.csv_ln"), "csv_ln")
