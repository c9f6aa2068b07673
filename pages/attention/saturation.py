"""√D and softmax saturation (S2, S3): a seeded Monte Carlo of qᵀk against qᵀk / √D."""

import pandas as pd
import streamlit as st

import ui
from attnviz.charts import saturation as charts
from attnviz.lessons import saturation
from attnviz.limits import MAX_SEED

ui.prose(ui.tr("saturation.intro"), heading=ui.tr("saturation.title"), level=1)
st.caption(ui.tr("saturation.symbols"))
left, right = ui.split([2, 3] if ui.presenting() else [1, 2])
with left:
    D = int(ui.choice_slider("D", ui.tr("saturation.D"), [str(d) for d in saturation.DS], "64"))
    N = ui.slider("N", ui.tr("saturation.N"), 2, saturation.MAX_KEYS, 16)
    rows = ui.slider("rows", ui.tr("saturation.rows"), 100, saturation.MAX_ROWS, 500, step=100)
    seed = ui.number("seed", ui.tr("saturation.seed"), 0, MAX_SEED, 0)
    sigmas = [f"{v:g}" for v in saturation.SIGMAS]
    sq = float(ui.choice_slider("sq", ui.tr("saturation.sigma_q"), sigmas, "1"))
    sk = float(ui.choice_slider("sk", ui.tr("saturation.sigma_k"), sigmas, "1"))
    cfg = ui.config(saturation.Config, N=N, rows=rows, seed=seed, sigma_q=sq, sigma_k=sk)
# computed outside the columns: a spinner inside the left one (a setting not computed yet)
# re-renders the column and the D slider loses keyboard focus
r = ui.compute(saturation.run, cfg, max_entries=32, label=ui.tr("saturation.computing"))
with left:
    if r.rows < cfg.rows:
        st.info(ui.tr("saturation.rows_capped", rows=r.rows, N=N, most=saturation.MAX_LOGITS))
    ui.prose(*map(ui.display, r.formulas), heading=ui.tr("saturation.formulas"))


def sig3(x: float) -> str:
    """Three significant digits, written out from 1000 up (4,170 rather than 4.17e+03)."""
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.3g}"


names = (ui.tr("saturation.unscaled"), ui.tr("saturation.scaled"))
at_D = ui.drawn(lambda: r.at(D))  # the logits, a row's weights, the statistics at D
with right:
    shown = ("variance", "max_weight", "jacobian", "saturated")
    formats = dict(zip(shown, (sig3, "{:.3f}".format, sig3, "{:.1%}".format), strict=True))
    ui.metrics(  # a row a logit, unscaled then scaled: each statistic read down its column
        [ui.tr(f"saturation.m_{col}", t=saturation.SATURATED) for col in shown],
        {
            name: [formats[col](at_D.stats.loc[scaled, col]) for col in shown]
            for scaled, name in ((False, names[0]), (True, names[1]))
        },
        heading=ui.tr("saturation.at_D", D=D, rows=r.rows, N=N),
    )
    ui.plot(
        lambda: charts.logit_histograms(
            at_D.logits,
            D,
            names,
            title=ui.tr("saturation.hist_title", D=D),
            x_title=ui.tr("saturation.logit"),
        ),
        "hist",
        f"logits_D{D}",
    )
    ui.plot(
        lambda: charts.weight_rows(
            *at_D.example,
            names,
            title=ui.tr("saturation.row_title", N=N, D=D),
            x_title=ui.tr("saturation.key"),
        ),
        "row",
        f"example_row_D{D}",
    )

ui.plot(
    lambda: charts.variance_curve(
        r.curves,
        r.slope,
        D,
        names,
        title=ui.tr("saturation.var_title"),
        y_title=ui.tr("saturation.variance"),
        slope_name=ui.tr("saturation.slope"),
        product=r.product,
    ),
    "variance",
    "variance",
)
raw = at_D.stats.loc[False, "variance"]  # Var(qᵀk) at the chosen D, read off the red curve
st.markdown(ui.tr("saturation.var_read", D=D, var=sig3(raw), per_D=raw / D, law=r.product))
titles = {
    c: ui.tr(f"saturation.t_{c}", t=saturation.SATURATED)
    for c in ("max_weight", "entropy", "jacobian", "saturated")
}
# presenting: four labels a panel stay upright; taller, for the 20 px labels and titles
few = dict(tick_base=16, height=760) if ui.presenting() else {}
ui.plot(
    lambda: charts.softmax_curves(r.curves, D, N, names, titles, **few), "curves", "softmax_curves"
)
st.markdown(ui.tr("saturation.reading"))
columns = {c: ui.tr(f"saturation.col_{c}") for c in r.curves.columns if c != "D"}
ui.csv_button(  # the tables built when their buttons are clicked
    lambda: r.curves.set_index("D").rename(columns=columns),
    ui.tr("saturation.csv_curves"),
    "csv_curves",
    label=ui.tr("saturation.dl_curves"),
)
rows = pd.RangeIndex(1, r.rows + 1, name=ui.tr("saturation.col_row"))  # numbered from 1
keys = pd.RangeIndex(1, N + 1, name=ui.tr("saturation.col_key"))
ui.csv_button(
    lambda: pd.DataFrame(at_D.logits, index=rows, columns=[f"k_{j}" for j in keys]),
    ui.tr("saturation.csv_logits", D=D),
    "csv_logits",
    label=ui.tr("saturation.dl_logits", D=D),
)
ui.csv_button(
    lambda: pd.DataFrame(dict(zip(names, at_D.example, strict=True)), index=keys),
    ui.tr("saturation.csv_row", D=D),
    "csv_row",
    label=ui.tr("saturation.dl_row", D=D),
)
