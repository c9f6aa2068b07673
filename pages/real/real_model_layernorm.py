"""The real-model page's LayerNorm section, drawn by pages/real/real_model.py (S13): one
LayerNorm's trained γ and β, the same pair applied to every token (checked token by token),
and the FFN's width D_ff = 4D. Strings are ``real_model_layernorm.*``."""

from __future__ import annotations

import pandas as pd
import streamlit as st

import ui
from attnviz.charts import layernorm as charts
from attnviz.lessons.real_model import layernorm


def sci(x: float) -> str:
    """x in LaTeX's scientific notation, two digits: 7.9 × 10^{-7}, not 7.9e-07."""
    mantissa, exponent = f"{x:.1e}".split("e")
    return rf"{mantissa} \times 10^{{{int(exponent)}}}"


def section(text: str, L: int, model: str = layernorm.MODEL) -> None:
    """The section's two controls (layer, which LayerNorm), its formulas, the check, γ and β."""
    st.subheader(ui.tr("real_model_layernorm.title"))
    st.markdown(ui.tr("real_model_layernorm.intro"))
    # the page's two columns are the map's (ui.split is once a page): controls side by side
    left, right = st.columns(2)
    layer = ui.slider("ln_layer", ui.tr("real_model_layernorm.layer"), 1, L, 1, where=left) - 1
    site = ui.select(
        "ln_site",
        ui.tr("real_model_layernorm.site"),
        tuple(layernorm.SITES),
        "ln_1",
        labels="real_model_layernorm.site_",
        radio=True,
        where=right,
    )
    cfg = ui.config(layernorm.Config, text=text, layer=layer, site=site, model=model)
    r = ui.compute(layernorm.run, cfg)
    for formula in r.formulas:
        st.latex(formula)
    st.markdown(ui.tr("real_model_layernorm.d_ff", D=r.D, D_ff=r.D_ff, k=r.D_ff / r.D))
    check = dict(n=len(r.tokens), residual=sci(r.residual), mean=sci(r.mean), var=sci(r.var))
    st.markdown(ui.tr("real_model_layernorm.check", **check))
    where = ui.tr("real_model_layernorm.dl", l=layer + 1)  # files named as their buttons
    ui.plot(
        lambda: charts.gamma_beta(
            r.gamma,
            r.beta,
            titles=(ui.tr("real_model_layernorm.gamma"), ui.tr("real_model_layernorm.beta")),
            x_title=ui.tr("real_model_layernorm.component"),
        ),
        "ln_gamma_beta",
        ui.file_stem(where),
        same=cfg,
    )
    title = ui.tr("real_model_layernorm.lines_title", n=len(r.tokens))
    ui.plot(
        lambda: charts.token_lines(
            r.x_hat,
            r.out,
            r.gamma,
            r.beta,
            r.components,
            r.tokens,
            name=ui.tr("real_model_layernorm.line", d="{d}", g="{g:.3f}", b="{b:.3f}"),
            title=ui.tr("real_model_layernorm.lines_title", n=len(r.tokens)),
            x_title=ui.tr("real_model_layernorm.x_hat"),
            y_title=ui.tr("real_model_layernorm.ln_out"),
        ),
        "ln_lines",
        ui.file_stem(title),
        same=cfg,
    )
    st.caption(ui.tr("real_model_layernorm.lines_note"))
    d = pd.RangeIndex(1, r.D + 1, name=ui.tr("real_model_layernorm.component"))
    ui.csv_button(
        lambda: pd.DataFrame({"γ": r.gamma, "β": r.beta}, index=d),  # built when clicked
        ui.file_stem(where),
        "csv_ln",
        label=where,
    )
