"""The real-model page's LayerNorm section, drawn by pages/real/real_model.py (S13): what one
LayerNorm does to each token (its mean and variance before, after normalising and after γ
and β, measured on the model's own hidden states), its trained γ and β beside 1 and 0, and
the FFN's width D_ff = 4D. Strings are ``real_model_layernorm.*``."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

import ui
from attnviz.charts import layernorm as charts
from attnviz.lessons.real_model import layernorm


def sci(x: float) -> str:
    """x in LaTeX's scientific notation, two digits: 7.9 × 10^{-7}, not 7.9e-07."""
    mantissa, exponent = f"{x:.1e}".split("e")
    return rf"{mantissa} \times 10^{{{int(exponent)}}}"


def measured(r: layernorm.Result) -> dict[str, object]:
    """The sentence's numbers: each token's σ_t and μ_t before the LN, how far x̂_t's mean and
    variance are from 0 and 1, and the output's σ after γ and β, as ranges over tokens."""
    sd, out_sd = np.sqrt(r.x_var), np.sqrt(r.out_var)
    return dict(
        n=len(r.tokens),
        sd_lo=sd.min(),
        sd_hi=sd.max(),
        mu_lo=r.x_mean.min(),
        mu_hi=r.x_mean.max(),
        mean=sci(np.abs(r.hat_mean).max()),
        var=sci(np.abs(r.hat_var - 1).max()),
        out_lo=out_sd.min(),
        out_hi=out_sd.max(),
    )


def trained(r: layernorm.Result) -> dict[str, float]:
    """γ's and β's mean, standard deviation and range over the D components."""
    g, b = r.gamma, r.beta
    return dict(
        g_mean=g.mean(), g_std=g.std(), g_min=g.min(), g_max=g.max(), b_mean=b.mean(), b_std=b.std()
    )


def per_token_table(r: layernorm.Result) -> pd.DataFrame:
    """One row a token: μ_t, σ_t of its input; mean and variance of x̂_t; mean, σ of the output."""
    tr = ui.tr
    columns = {
        "col_mu": r.x_mean,
        "col_sigma": np.sqrt(r.x_var),
        "col_hat_mean": r.hat_mean,
        "col_hat_var": r.hat_var,
        "col_out_mean": r.out_mean,
        "col_out_sigma": np.sqrt(r.out_var),
    }
    # rounded as shown, then + 0.0: −1e-8 reads 0.000, not −0.000
    shown = {tr(f"real_model_layernorm.{k}"): np.round(v, 3) + 0.0 for k, v in columns.items()}
    table = pd.DataFrame(shown)
    table.index = pd.Index(r.tokens, name=tr("real_model_layernorm.col_token"))
    return table


def section(text: str, L: int, model: str = layernorm.MODEL) -> None:
    """The section's two controls (layer, which LayerNorm), its formulas, what the LN does to
    each token, γ and β."""
    ui.prose(ui.tr("real_model_layernorm.intro"), heading=ui.tr("real_model_layernorm.title"))
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
    ui.prose(
        *map(ui.display, r.formulas),
        ui.tr("real_model_layernorm.d_ff", D=r.D, D_ff=r.D_ff, k=r.D_ff / r.D),
        ui.tr("real_model_layernorm.measured", **measured(r)),
    )
    ui.number_table(lambda: per_token_table(r), 3)
    st.markdown(ui.tr("real_model_layernorm.trained", **trained(r)))
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
    )
    st.caption(ui.tr("real_model_layernorm.lines_note"))
    d = pd.RangeIndex(1, r.D + 1, name=ui.tr("real_model_layernorm.component"))
    ui.csv_button(
        lambda: pd.DataFrame({"γ": r.gamma, "β": r.beta}, index=d),  # built when clicked
        ui.file_stem(where),
        "csv_ln",
        label=where,
    )
