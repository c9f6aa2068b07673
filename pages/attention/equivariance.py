"""Permutation equivariance (S7, S15, S16): f(PX) = P f(X) without positions, not with them."""

import streamlit as st

import ui
from attnviz.charts import equivariance as charts
from attnviz.lessons import equivariance
from attnviz.limits import MAX_SEED
from attnviz.norms import NORMS
from attnviz.text import token_labels
from ui.export import map_table

ui.prose(ui.tr("equivariance.intro"), heading=ui.tr("equivariance.title"), level=1)
st.caption(ui.tr("equivariance.symbols"))
left, right = ui.split([2, 3] if ui.presenting() else [1, 2])
with left:
    text = ui.text("text", ui.tr("equivariance.text"), ui.tr("equivariance.default_text"), 400)
    text_notice = st.container()
    kind = ui.select(
        "perm",
        ui.tr("equivariance.perm"),
        equivariance.PERMUTATIONS,
        "reverse",
        labels="equivariance.perm_",
    )
    fields = dict(text=text, perm=kind)
    if kind == "shuffle":
        fields["perm_seed"] = ui.number("pseed", ui.tr("equivariance.perm_seed"), 0, MAX_SEED, 0)
    elif kind == "swap":  # positions 1 … N on the page, 0-based in the lesson
        top = equivariance.MAX_TOKENS
        fields["i"] = ui.number("i", ui.tr("equivariance.i"), 1, top, 1) - 1
        fields["j"] = ui.number("j", ui.tr("equivariance.j"), 1, top, 2) - 1
    elif kind == "typed":
        fields["order"] = ui.text(
            "order", ui.tr("equivariance.order"), "", 400, help=ui.tr("equivariance.order_help")
        )
    perm_notice = st.container()  # what the run made of the permutation asked for
    ui.show_settled(perm_notice)
    pe, pe_mode = ui.positions("equivariance", "none")
    placements = ui.spec_labels(NORMS)
    norm = ui.select("norm", ui.tr("equivariance.norm"), NORMS, "post", labels=placements)
    widths = [str(d) for d in equivariance.WIDTHS]
    D = int(ui.choice_slider("D", ui.tr("equivariance.D"), widths, "32"))
    heads = [str(h) for h in equivariance.HEADS]
    H = int(ui.select("H", ui.tr("equivariance.H"), heads, "2", radio=True))
    seed = ui.number("seed", ui.tr("equivariance.seed"), 0, MAX_SEED, 0)
    fields |= dict(D=D, H=H, pe=pe, pe_mode=pe_mode, norm=norm, seed=seed)
    cfg = ui.config(equivariance.Config, **fields)
    r = ui.compute(equivariance.run, cfg)
    if r.cut:
        text_notice.info(ui.tr("equivariance.tokens_cut", n=equivariance.MAX_TOKENS))
    if r.swapped:
        i, j = r.swapped
        if (i, j) != (fields["i"], fields["j"]):  # past the end: the inputs show the last
            past = ui.tr("equivariance.swap_moved", N=len(r.tokens))
            ui.settle(past, i=i + 1, j=j + 1)
        a, b = r.tokens[i], r.tokens[j]
        perm_notice.caption(ui.tr("equivariance.swapping", a=a, b=b, i=i + 1, j=j + 1))
    if r.notice == "bad_order":
        last = len(r.tokens)
        perm_notice.warning(ui.tr("equivariance.bad_order", order=cfg.order.strip(), last=last))
    elif r.notice:
        perm_notice.info(ui.tr(f"equivariance.{r.notice}"))
    ui.prose(*map(ui.display, r.formulas), heading=ui.tr("equivariance.formulas"))

labels = token_labels(r.tokens, escape=False)  # CSV headers: the tokens as typed
perm_labels = token_labels(r.perm_tokens, escape=False)
with right:
    ui.metrics(
        [ui.tr("equivariance.error"), ui.tr("equivariance.attn_error")],
        [f"{r.error:.2e}", f"{r.attn_error:.2e}"],
    )
    verdict = {"identity": st.info, "holds": st.success, "breaks": st.warning}[r.verdict]
    verdict(ui.tr(f"equivariance.{r.verdict}"))
    h = 1  # heads h = 1 … H, as the chapter numbers them
    if H > 1:
        choices = [str(k) for k in range(1, H + 1)]
        h = int(ui.select("head", ui.tr("equivariance.head"), choices, "1", radio=True))
    st.caption(ui.tr("equivariance.maps", h=h))
    titles = tuple(ui.tr(f"equivariance.t_{k}") for k in ("A", "A_P", "PAPt"))
    ui.plot(
        lambda: charts.attention_triplet(  # stacked on a projector: its tokens at 20 px
            r.A[h - 1],
            r.A_P[h - 1],
            r.PAPt[h - 1],
            r.tokens,
            r.perm_tokens,
            titles,
            stacked=ui.presenting(),
        ),
        "maps",
        f"maps_head{h}",
    )
    ui.plot(
        lambda: charts.difference_map(
            r.diff,
            r.perm_tokens,
            scale=r.out_scale,
            note=ui.tr("equivariance.rounding_only", error=r.error, rel=r.error / r.out_scale)
            if r.rounding_only
            else "",
            bar_title=ui.tr("equivariance.diff_bar", scale=r.out_scale),
            title=ui.tr("equivariance.diff_title"),
            x_title=ui.tr("equivariance.dim"),
            dim_name=ui.tr("equivariance.dim_short"),
        ),
        "diff",
        "difference",
    )
    ui.plot(
        lambda: charts.permutation_matrix(r.perm, r.tokens, title=ui.tr("equivariance.P_title")),
        "P",
        "permutation",
    )
    # the corner above the row labels says what rows and columns are (blank, it read as
    # "Unnamed: 0"); the maps' rows are queries
    for name, z, rows, cols, corner in (
        ("A", r.A[h - 1], labels, labels, "app.csv_corner"),
        ("A_P", r.A_P[h - 1], perm_labels, perm_labels, "app.csv_corner"),
        ("PAPt", r.PAPt[h - 1], perm_labels, perm_labels, "app.csv_corner"),
        ("diff", r.diff, perm_labels, range(1, r.diff.shape[1] + 1), "equivariance.corner_diff"),
        ("P", r.P, perm_labels, labels, "equivariance.corner_P"),
    ):
        ui.csv_button(
            map_table(z, rows, list(cols), corner),
            ui.tr(f"equivariance.csv_{name}", h=h),
            f"csv_{name}",
            label=ui.tr(f"equivariance.dl_{name}", h=h),
        )
