"""√D and softmax saturation (S2, S3): a seeded Monte Carlo of qᵀk against qᵀk / √D."""

import numpy as np
import pandas as pd
import streamlit as st
import torch

import ui
from attnviz.charts import saturation as charts
from attnviz.lessons import saturation
from attnviz.limits import MAX_SEED

FORMULAS = [
    r"r(\mathbf{z}, \mathbf{q}) = \frac{\mathbf{z}^\top \mathbf{q}}{\sqrt{D}}",
    r"\mathrm{Var}(\mathbf{q}^\top \mathbf{k}) = \sum_{d=1}^{D} \mathrm{Var}(q_d k_d) = D",
    r"\mathrm{Var}\!\left(\frac{\mathbf{q}^\top \mathbf{k}}{\sqrt{D}}\right) = 1",
    r"\mathbf{a} = \mathrm{softmax}(\mathbf{s})",
    r"J = \frac{\partial \mathbf{a}}{\partial \mathbf{s}}"
    r" = \mathrm{diag}(\mathbf{a}) - \mathbf{a}\mathbf{a}^\top",
    r"H(\mathbf{a}) = -\sum_{j=1}^{N} a_j \log a_j \le \log N",
]


@st.cache_data(max_entries=32, show_spinner=False)
def compute(N, rows, seed):
    return saturation.run(N, rows, seed)


st.title(ui.tr("saturation.title"))
st.markdown(ui.tr("saturation.intro"))
left, right = st.columns([2, 3] if ui.presenting() else [1, 2])
with left:
    D = int(ui.choice_slider("D", ui.tr("saturation.D"), [str(d) for d in saturation.DS], "64"))
    N = ui.slider("N", ui.tr("saturation.N"), 2, saturation.MAX_KEYS, 16)
    rows = ui.slider("rows", ui.tr("saturation.rows"), 100, saturation.MAX_ROWS, 500, step=100)
    seed = ui.number("seed", ui.tr("saturation.seed"), 0, MAX_SEED, 0)
    if saturation.rows_allowed(N, rows) < rows:
        st.info(ui.tr("saturation.rows_capped", rows=saturation.rows_allowed(N, rows), N=N))
    st.subheader(ui.tr("saturation.formulas"))
    for formula in FORMULAS:
        st.latex(formula)

try:
    with st.spinner(ui.tr("saturation.computing")):
        r = compute(N, rows, seed)
except ValueError as err:
    ui.error_box(err)
    st.stop()

names = (ui.tr("saturation.unscaled"), ui.tr("saturation.scaled"))
i = saturation.DS.index(D)
raw = r.logits[i]  # (S, N) unscaled qᵀk at the chosen D
at_D = r.curves[r.curves["D"] == D].set_index("scaled")
with right:
    st.subheader(ui.tr("saturation.at_D", D=D, rows=r.rows, N=N))
    for scaled, name in ((False, names[0]), (True, names[1])):
        st.caption(name)
        cells = st.columns(4)
        for cell, col, fmt in zip(
            cells,
            ("variance", "max_weight", "jacobian", "saturated"),
            ("{:.3g}", "{:.3f}", "{:.3g}", "{:.1%}"),
            strict=True,
        ):
            cell.metric(ui.tr(f"saturation.m_{col}"), fmt.format(at_D.loc[scaled, col]))
    hist = charts.logit_histograms(
        raw, D, names, title=ui.tr("saturation.hist_title", D=D), x_title=ui.tr("saturation.logit")
    )
    ui.plot(hist, "hist", f"logits_D{D}")
    weights = [torch.softmax(torch.from_numpy(raw[0]) / s, -1).numpy() for s in (1, np.sqrt(D))]
    row = charts.weight_rows(
        *weights,
        names,
        title=ui.tr("saturation.row_title", N=N, D=D),
        x_title=ui.tr("saturation.key"),
    )
    ui.plot(row, "row", f"example_row_D{D}")

ui.plot(
    charts.variance_curve(
        r.curves,
        r.slope,
        D,
        names,
        title=ui.tr("saturation.var_title"),
        y_title=ui.tr("saturation.variance"),
    ),
    "variance",
    "variance",
)
titles = {c: ui.tr(f"saturation.t_{c}") for c in ("max_weight", "entropy", "jacobian", "saturated")}
ui.plot(charts.softmax_curves(r.curves, D, N, names, titles), "curves", "softmax_curves")
st.markdown(ui.tr("saturation.reading"))
ui.csv_button(r.curves.set_index("D"), ui.tr("saturation.csv_curves"), "csv_curves")
ui.csv_button(
    pd.DataFrame(raw, columns=[f"k{j}" for j in range(N)]).rename_axis("row"),
    ui.tr("saturation.csv_logits", D=D),
    "csv_logits",
)
ui.csv_button(
    pd.DataFrame({names[0]: weights[0], names[1]: weights[1]}).rename_axis("key"),
    ui.tr("saturation.csv_row", D=D),
    "csv_row",
)
