"""Multi-head self-attention (S9–S12): every head's map, one weight followed through its
formula, and a head's query–key space.

The controls on the left change the block and rerun the page; everything on the right
(weights or scores, the head enlarged, the weight followed, the query–key picture) is one
``st.fragment``: its controls and clicks rerun only it.
"""

import pandas as pd
import streamlit as st

import ui
from attnviz.block import NORMS
from attnviz.errors import InputError
from attnviz.lessons import multihead, multihead_probe
from attnviz.limits import MAX_D_HEAD, MAX_H, MAX_SEED, MAX_TEXT_CHARS
from attnviz.positional import KINDS, MODES
from attnviz.scoring import SCORES
from attnviz.tables import long_table
from attnviz.text import token_labels
from ui import mosaic, steps

WIDTHS = ["4", "8", "16", "24", "32", "48", "64", "96", "128", "192", "256", "384", "512"]
WIDTHS += ["768", "1024"]  # each has divisors among H = 1 … 32
QK_SCALES = ["0.25", "0.5", "1", "2", "3", "4", "8"]


def score_name(score: str) -> str:
    """The scoring function's name; a head scales its dot product by √D′, not √D."""
    return ui.tr("names.scaled_dot_head" if score == "scaled_dot" else f"names.{score}")


def pick_head(cols: int):
    """Tile (row, col) → the enlarged head's slider (h from 1)."""
    return lambda tile: st.session_state.update(head=tile[0] * cols + tile[1] + 1)


def pick_cell(cell: tuple[int, int]) -> None:
    """Map cell (query position, key position) → the sliders i and j (from 1), steps on."""
    st.session_state["i"], st.session_state["j"] = cell[0] + 1, cell[1] + 1
    st.session_state["follow"] = True


@st.fragment
def explore(cfg: multihead.Config, r: multihead.Result) -> None:
    N = len(r.tokens)
    show = ui.select(
        "show",
        ui.tr("multihead.show"),
        ["weights", "scores"],
        "weights",
        labels="multihead.",
        radio=True,
    )
    shown = r.weights if show == "weights" else r.scores
    # colours span the data, so near-uniform maps still show their structure; 1/N is marked
    lo, hi = (0.0 if show == "weights" else float(shown.min())), float(shown.max())
    uniform = {1 / N: "1/N"} if show == "weights" else None
    h = ui.slider("head", ui.tr("multihead.big_head"), 1, cfg.H, 1) - 1 if cfg.H > 1 else 0
    st.subheader(ui.tr("multihead.grid"))
    tiles, png = mosaic.head_grid(cfg, show, ui.presenting(), shown, lo, hi)
    titles = [ui.tr("multihead.head", h=g + 1) for g in range(cfg.H)]
    names = [
        ui.tr("multihead.tile_name", h=g + 1, entropy=r.entropy[g], max=r.max_weight[g])
        for g in range(cfg.H)
    ]
    payload = mosaic.data(
        tiles,
        png,
        row_labels=[],
        col_labels=[],
        names=names,
        tile_labels=titles,
        selected=divmod(h, tiles.cols),
        alt=ui.tr("multihead.grid"),
        large=ui.presenting(),
        max_width=760 if ui.presenting() else 520,
    )
    mosaic.mosaic(payload, "grid", pick_head(tiles.cols))
    notes = [ui.tr("multihead.grid_caption")]  # one element: fewer for a rerun to send
    if tiles.cell < N:
        notes.append(ui.tr("multihead.grid_pooled", N=N))
    if show == "weights":
        rule = "multihead.range_causal" if cfg.causal else "multihead.range"
        notes.append(ui.tr(rule, hi=hi, N=N, uniform=1 / N))
    st.caption("\n\n".join(notes))
    st.download_button(
        ui.download_label("png", ui.tr("multihead.dl_grid")),
        png,
        file_name="heads.png",
        mime="image/png",
        key="png_grid",
        on_click="ignore",
    )
    st.subheader(ui.tr("multihead.head_title", h=h + 1))
    map_slot = st.container()
    left, right = st.columns(2)
    i = ui.slider("i", ui.tr("multihead.pick_i"), 1, N, 1, where=left) - 1
    j = ui.slider("j", ui.tr("multihead.pick_j"), 1, N, 1, where=right) - 1
    with map_slot:
        look = dict(
            title=titles[h],
            zmin=lo,
            zmax=hi,
            marks=uniform,
            x_title=ui.tr("multihead.key"),
            y_title=ui.tr("multihead.query"),
            height=720 if ui.presenting() else 520,
        )
        mosaic.enlarged_map(
            shown[h],
            r.tokens,
            r.tokens,
            key="head_map",
            name=f"head{h + 1}_{show}",
            picked=(i, j),
            on_pick=pick_cell,
            **look,
        )
        st.caption(ui.tr("multihead.map_help"))
    labels = token_labels(r.tokens, escape=False)
    what = ui.tr(f"multihead.{show}")
    ui.csv_button(
        pd.DataFrame(shown[h], index=labels, columns=labels),
        f"head{h + 1}_{show}",
        "csv_head",
        label=ui.tr("multihead.dl_head", h=h + 1, what=what),
    )
    ui.csv_button(
        lambda: long_table(shown, labels, show).set_index("head"),
        f"all_heads_{show}",
        "csv_all",
        label=ui.tr("multihead.dl_all", what=what),
    )
    # drawn on demand (a click on a cell turns the steps on): the page redraws lean
    if ui.toggle("follow", ui.tr("steps.show_steps")):
        s = ui.compute(multihead_probe.follow, multihead_probe.Pick(cfg, h, i, j))
        steps.follow(s.steps, s.formulas, r.tokens, key="steps", where=titles[h])
        if cfg.norm == "pre":  # the steps' x_i is what attention reads
            st.caption(ui.tr("multihead.pre_ln_steps"))
        st.caption(ui.tr(f"steps.cell_{show}", i=i + 1, j=j + 1, value=float(shown[h, i, j])))
    if ui.toggle("qkview", ui.tr("steps.show_qk")):
        st.subheader(ui.tr("steps.qk_title", h=h + 1))
        k, centre = steps.qk_controls("space")
        try:
            probe = multihead_probe.Probe(cfg, h, i, k, centre)
        except InputError:  # query_only: no keys, so no query–key space
            st.info(ui.tr("steps.qk_no_keys"))
        else:
            st.caption(ui.tr("steps.qk_intro"))
            steps.qk_view(ui.compute(multihead_probe.qk, probe), key="space")
    mosaic.keep_in_url()


st.title(ui.tr("multihead.title"))
st.markdown(ui.tr("multihead.intro"))
left, right = ui.split([2, 3])  # the formulas need two fifths
with left:
    text = ui.text("text", ui.tr("multihead.text"), ui.tr("multihead.default_text"), MAX_TEXT_CHARS)
    D = int(ui.choice_slider("D", ui.tr("multihead.D"), WIDTHS, "64"))
    H = ui.slider("H", ui.tr("multihead.H"), 1, MAX_H, 8)
    auto = ui.toggle("auto", ui.tr("multihead.d_head_auto"), True)
    d_head = None if auto else ui.slider("d_head", ui.tr("multihead.d_head"), 1, MAX_D_HEAD, 8)
    score_names = {k: score_name(k) for k in SCORES}.get  # translated in this run
    score = ui.select("score", ui.tr("multihead.score"), SCORES, "scaled_dot", labels=score_names)
    causal = ui.toggle("causal", ui.tr("multihead.causal"))
    pe = ui.select("pe", ui.tr("multihead.pe"), KINDS, "sinusoidal", labels="names.pe_")
    pe_mode = ui.select(
        "pe_mode", ui.tr("multihead.pe_mode"), MODES, "add", labels="names.mode_", radio=True
    )
    norm = ui.select("norm", ui.tr("multihead.norm"), NORMS, "post", labels="names.norm_")
    seed = ui.number("seed", ui.tr("multihead.seed"), 0, MAX_SEED, 0)
    qk = float(ui.choice_slider("qk", ui.tr("multihead.qk_scale"), QK_SCALES, "1"))
    fields = dict(text=text, D=D, H=H, d_head=d_head, score=score, causal=causal)
    fields |= dict(pe=pe, pe_mode=pe_mode, norm=norm, seed=seed, qk_scale=qk)
    cfg, moved = ui.config(multihead.Config.fit, **fields)
    if moved:
        st.info(ui.explain(moved))
    r = ui.compute(multihead.run, cfg)
    st.caption(ui.tr("multihead.d_head_is", width=r.width, H=cfg.H, d_head=r.d_head))
    if r.d_head >= r.width:
        st.warning(ui.tr("multihead.d_head_wide", d_head=r.d_head, width=r.width))
    for formula in r.formulas:
        st.latex(formula)
    lo, hi, qk = r.entropy.min(), r.entropy.max(), cfg.qk_scale
    root, factor = r.d_head**0.5, r.score_factor
    st.markdown(ui.tr(f"multihead.{r.reading}", lo=lo, hi=hi, qk=qk, root=root, factor=factor))
    entropy = "multihead.col_entropy_causal" if cfg.causal else "multihead.col_entropy"
    sharpness = pd.DataFrame(
        {ui.tr(entropy): r.entropy, ui.tr("multihead.col_max"): r.max_weight},
        index=pd.Index(
            [ui.tr("multihead.head", h=g + 1) for g in range(cfg.H)],
            name=ui.tr("multihead.col_head"),
        ),
    )
    st.table(sharpness.round(4))  # a plain table: the page redraws faster than with a grid

with right:
    explore(cfg, r)

st.subheader(ui.tr("multihead.pipeline"))
ui.formula_table(r.pipeline)
