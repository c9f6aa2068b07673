"""Permutation equivariance (S7, S15, S16): f(PX) = P f(X) without positions, not with them."""

import numpy as np
import pandas as pd
import streamlit as st

import ui
from attnviz.block import NORMS
from attnviz.charts import equivariance as charts
from attnviz.latex import EQUIVARIANCE
from attnviz.lessons import equivariance
from attnviz.limits import MAX_SEED
from attnviz.positional import KINDS, MODES

FORMULAS = [
    EQUIVARIANCE,
    r"\begin{aligned}A(PX) &= \mathrm{softmax}\!\left(\frac{P Q K^\top P^\top}{\sqrt{D'}}\right)"
    r" \\ &= P\,A(X)\,P^\top\end{aligned}",
    r"\begin{aligned}\mathrm{PE}(PX) &= PX + E \\ &\neq P(X + E) = P\,\mathrm{PE}(X)"
    r"\end{aligned}",
]
TOLERANCE = 1e-5  # above float32 rounding of one block, far below any PE effect


@st.cache_data(max_entries=64, show_spinner=False)
def compute(text, perm, D, H, pe, pe_mode, norm, seed):
    return equivariance.run(text, perm, D, H, pe, pe_mode, norm, seed)


st.title(ui.tr("equivariance.title"))
st.markdown(ui.tr("equivariance.intro"))
left, right = st.columns([2, 3] if ui.presenting() else [1, 2])
with left:
    text = ui.text("text", ui.tr("equivariance.text"), ui.tr("equivariance.default_text"), 400)
    try:
        tokens, cut = equivariance.tokens_of(text)
    except ValueError as err:
        ui.error_box(err)
        st.stop()
    if cut:
        st.info(ui.tr("equivariance.tokens_cut", n=equivariance.MAX_TOKENS))
    N = len(tokens)
    kind = ui.select(
        "perm",
        ui.tr("equivariance.perm"),
        equivariance.PERMUTATIONS,
        "reverse",
        labels="equivariance.perm_",
    )
    options = {}
    if kind == "shuffle":
        options["seed"] = ui.number("pseed", ui.tr("equivariance.perm_seed"), 0, MAX_SEED, 0)
    elif kind == "swap":
        top = equivariance.MAX_TOKENS - 1
        options["i"] = min(ui.number("i", ui.tr("equivariance.i"), 0, top, 0), N - 1)
        options["j"] = min(ui.number("j", ui.tr("equivariance.j"), 0, top, 1), N - 1)
        st.caption(
            ui.tr(
                "equivariance.swapping", a=tokens[options["i"]], b=tokens[options["j"]], **options
            )
        )
    elif kind == "typed":
        options["typed"] = ui.text(
            "order", ui.tr("equivariance.order"), "", 400, help=ui.tr("equivariance.order_help")
        )
    try:
        perm = equivariance.permutation(kind, N, **options)
    except ValueError:
        typed = options.get("typed", "").strip()
        message = ui.tr("equivariance.bad_order", order=typed, last=N - 1)
        st.warning(message) if typed else st.info(ui.tr("equivariance.order_help"))
        perm = equivariance.permutation("reverse", N)
    pe = ui.select("pe", ui.tr("equivariance.pe"), KINDS, "none", labels="names.pe_")
    pe_mode = ui.select(
        "pe_mode",
        ui.tr("equivariance.pe_mode"),
        MODES,
        "add",
        labels="names.mode_",
        radio=True,
    )
    norm = ui.select("norm", ui.tr("equivariance.norm"), NORMS, "post", labels="names.norm_")
    D = int(ui.select("D", ui.tr("equivariance.D"), [str(2**k) for k in range(3, 9)], "32"))
    H = int(ui.select("H", ui.tr("equivariance.H"), ["1", "2", "4", "8"], "2", radio=True))
    seed = ui.number("seed", ui.tr("equivariance.seed"), 0, MAX_SEED, 0)
    st.subheader(ui.tr("equivariance.formulas"))
    for formula in FORMULAS:
        st.latex(formula)

try:
    r = compute(text, tuple(int(k) for k in perm), D, H, pe, pe_mode, norm, seed)
except ValueError as err:
    ui.error_box(err)
    st.stop()

perm_tokens = [tokens[k] for k in r.perm]
labels, perm_labels = ([f"{i}:{t}" for i, t in enumerate(ts)] for ts in (tokens, perm_tokens))
with right:
    a, b = st.columns(2)
    a.metric(ui.tr("equivariance.error"), f"{r.error:.2e}")
    b.metric(ui.tr("equivariance.attn_error"), f"{r.attn_error:.2e}")
    if (r.perm == np.arange(N)).all():
        st.info(ui.tr("equivariance.identity"))
    elif r.error < TOLERANCE:
        st.success(ui.tr("equivariance.holds"))
    else:
        st.warning(ui.tr("equivariance.breaks"))
    h = (
        int(
            ui.select(
                "head", ui.tr("equivariance.head"), [str(k) for k in range(H)], "0", radio=True
            )
        )
        if H > 1
        else 0
    )
    st.caption(ui.tr("equivariance.maps", h=h))
    titles = tuple(ui.tr(f"equivariance.t_{k}") for k in ("A", "A_P", "PAPt"))
    ui.plot(
        charts.attention_triplet(r.A[h], r.A_P[h], r.PAPt[h], tokens, perm_tokens, titles),
        "maps",
        f"maps_head{h}",
    )
    ui.plot(
        charts.difference_map(
            r.diff,
            perm_tokens,
            title=ui.tr("equivariance.diff_title"),
            x_title=ui.tr("equivariance.dim"),
        ),
        "diff",
        "difference",
    )
    ui.plot(
        charts.permutation_matrix(r.perm, tokens, title=ui.tr("equivariance.P_title")),
        "P",
        "permutation",
    )
    for name, z, rows, cols in (
        ("A", r.A[h], labels, labels),
        ("A_P", r.A_P[h], perm_labels, perm_labels),
        ("PAPt", r.PAPt[h], perm_labels, perm_labels),
        ("diff", r.diff, perm_labels, range(r.diff.shape[1])),
        ("P", np.eye(N)[r.perm], perm_labels, labels),
    ):
        ui.csv_button(
            pd.DataFrame(z, index=rows, columns=list(cols)),
            ui.tr(f"equivariance.csv_{name}", h=h),
            f"csv_{name}",
        )
