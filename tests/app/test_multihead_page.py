"""The multi-head page: runs in both languages; its tiles and map are the run's weights; a
picked weight's steps end on the map's cell; the query–key picture is the probe's
projection (the laws behind them are tests/lessons' to check)."""

import csv
import io
import re

import numpy as np
import pytest

from attnviz.charts.raster import colour
from attnviz.formulas.heads import head_scores
from attnviz.i18n import t
from attnviz.lessons import multihead, multihead_probe
from attnviz.limits import MAX_N, MAX_TEXT_CHARS
from attnviz.scores import SCORES
from attnviz.text import token_labels, tokenize
from ui.page_run import CUT_ICON

from .helpers import (
    assert_clean,
    assert_step_charts,
    captions,
    chain,
    component,
    decode,
    figures,
    latex,
    map_z,
    number_tables,
    pick,
    png_of,
    run_page,
    step_charts,
    step_panels,
    sweep_controls,
)


def grid(at) -> dict:
    """The mosaic component's payload: the PNG of every head and its geometry."""
    return component(at, "attnviz.mosaic")


def png(payload: dict) -> np.ndarray:
    return png_of(payload["src"])


def last_number(line: str) -> float:
    """The number a formula line ends on, as ``worked.number`` writes it."""
    text = line.rsplit("=", 1)[1].strip()
    m = re.fullmatch(r"(-?[\d.]+)(?: \\times 10\^\{(-?\d+)\})?", text)
    return float(m[1]) * 10 ** int(m[2] or 0)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_tile_is_its_heads_map_and_the_map_is_head_1(lang):
    at = run_page("multihead", lang=lang)
    assert_clean(at)
    text = at.text_input(key="text").value
    r = multihead.run(multihead.Config(text=text))
    payload = grid(at)
    assert len(payload["names"]) == 8 and payload["tileLabels"][2] == (
        "head 3" if lang == "en" else "ヘッド\u00a03"  # no break before the 3
    )
    image = png(payload)
    cell, band = payload["cell"], payload["band"]
    step = cell + payload["gap"]
    step_y = band + step
    N = len(tokenize(text))
    up = cell // N
    for h in range(8):
        row, col = divmod(h, payload["cols"])
        tile = image[
            band + row * step_y : band + row * step_y + cell, col * step : col * step + cell
        ]
        np.testing.assert_array_equal(
            tile[::up, ::up], colour(r.weights[h], 0.0, float(r.weights.max()))
        )
    np.testing.assert_allclose(map_z(at), r.weights[0], atol=1e-6)  # head 1, enlarged


def test_hostile_url_values_do_not_break_the_page():
    at = run_page(
        "multihead",
        H="0",
        D="abc",
        seed="-5",
        text="<script>alert(1)</script>",
        score="nope",
        i="999",
        follow="true",
        head="x",
    )
    assert_clean(at)
    assert at.slider(key="H").value == 1  # clamped to the lower cap
    assert at.selectbox(key="score").value == "scaled_dot"
    assert at.session_state["i"] == len(tokenize("<script>alert(1)</script>"))  # clamped
    assert len(at.warning) >= 3


@pytest.mark.parametrize("extra", [{}, {"H": 1, "follow": "true", "qkview": "true"}])
def test_a_sentence_of_one_token_draws_its_one_weight(extra):
    """``?text=x``: the sliders of row i and column j had a range of one value, which
    Streamlit refuses; the page's right-hand side was a traceback."""
    at = run_page("multihead", text="x", **extra)
    assert_clean(at)
    assert map_z(at).shape == (1, 1) and map_z(at)[0, 0] == pytest.approx(1.0)
    assert not [s for s in at.slider if s.key in ("i", "j")]  # nothing to pick


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_score_menu_names_the_scaling_each_head_computes(lang):
    """A head divides by √D′: the bilinear option said √D (the scoring page's name)."""
    at = run_page("multihead", lang=lang)
    menu = at.selectbox(key="score")
    for score, label in zip(SCORES, menu.options, strict=True):
        scaled = "\\sqrt{D'}" in head_scores(score)
        assert ("√D′" in label) == scaled and not re.search("√D(?!′)", label), label


@pytest.mark.parametrize("score", sorted(SCORES))
def test_the_scale_s_says_what_it_does_to_the_scores_computed(score):
    """The slider's label said "scores grow like s²" whatever the score: the query-only
    score's grow like s, and tanh keeps the MLP's bounded."""
    label = run_page("multihead", lang="en", score=score).select_slider(key="qk").label
    label = label.replace("${", "$").replace("}$", "$")  # short math is one group: ${s^2}$
    base, doubled = (
        multihead.run(multihead.Config(text="a b c d e", score=score, qk_scale=s)).scores
        for s in (1.0, 2.0)
    )
    ratio = doubled / base
    if np.allclose(ratio, 4, rtol=1e-3):
        assert "$s^2$" in label, label
    elif np.allclose(ratio, 2, rtol=1e-3):
        assert "grow like $s$" in label, label
    else:  # the MLP: no power of s
        assert score == "mlp" and "bounded" in label and "grow like" not in label, label


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_control_reruns_cleanly(lang):
    at = run_page("multihead", lang=lang, text="a b c d e f")
    assert sweep_controls(at) > 20


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_large_grid_is_pooled_and_says_so(lang):
    text = " ".join(f"w{i}" for i in range(150))
    at = run_page("multihead", lang=lang, text=text, D=384, H=12)
    assert_clean(at)
    payload = grid(at)
    assert len(payload["names"]) == 12 and payload["cell"] < 150
    assert t("multihead.grid_pooled", lang, N=150) in payload["notes"]  # under the grid
    r = multihead.run(multihead.Config(text=text, D=384, H=12))
    weights = map_z(at)  # the picture of every cell, zoomed in the browser
    np.testing.assert_allclose(weights, r.weights[0], atol=1e-6)


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize(
    ("params", "present", "absent"),
    [
        ({"score": "mlp"}, ["\\tanh"], ["\\sqrt{D'}", "\\mathcal{A}_{D'}"]),
        ({"score": "dot", "causal": "true"}, ["C_{ij}"], ["\\sqrt{D'}", "M_{ij}"]),
        ({"score": "scaled_dot", "pe": "none"}, ["\\mathcal{A}_{D'}", "\\sqrt{D'}"], ["E"]),
        ({"pe_mode": "concat"}, ["[X;\\ E]"], ["X + E", "\\hat{X}"]),
        ({"norm": "pre"}, ["\\hat{X} = \\mathrm{LN}(X)", "Q_h = \\hat{X} W_h^Q"], ["Q_h = X"]),
    ],
)
def test_formulas_shown_are_those_of_the_config_run(lang, params, present, absent):
    on = dict(i=3, j=2, head=2, follow="true", qkview="true")  # the steps and the QK picture
    at = run_page("multihead", lang=lang, text="a b c d", D=16, H=2, **on, **params)
    assert_clean(at)
    shown = [chain(line) for line in latex(at)]  # the steps' chains set one step a line
    fields = {"text": "a b c d", "D": 16, "H": 2, "causal": params.get("causal") == "true"}
    fields |= {k: v for k, v in params.items() if k != "causal"}
    cfg = multihead.Config(**fields)
    r = multihead.run(cfg)
    followed = multihead_probe.follow(multihead_probe.Pick(cfg, h=1, i=2, j=1)).formulas
    space = multihead_probe.qk(multihead_probe.Probe(cfg, h=1, query=2)).formulas
    assert shown == r.formulas + followed + space
    joined = " ".join(r.formulas)
    assert all(p in joined for p in present) and not any(a in joined for a in absent)
    header = [t(f"app.col_{c}", lang) for c in ("step", "formula", "shape")]
    table = next(tab.value for tab in at.table if list(tab.value.columns) == header)
    typeset = [f"$\\displaystyle {f}$" for f in r.pipeline.formula]
    assert list(table[header[1]]) == typeset
    assert list(table[header[2]]) == list(r.pipeline["shape"])
    pre_ln = t("multihead.pre_ln_steps", lang) in captions(at)  # x_i is LN's
    assert pre_ln == (params.get("norm") == "pre")


def test_concatenated_positions_keep_a_valid_H():
    at = run_page("multihead", text="a b", D=24, H=16, pe_mode="concat")
    assert_clean(at)
    assert not at.info and not at.error  # 48 / 16 = 3: nothing to repair
    at = run_page("multihead", lang="ja", text="a b", D=1024, pe_mode="concat")
    assert_clean(at)
    assert "2048" in at.error[0].value and "512" in at.error[0].value


def test_colours_span_the_data_with_the_uniform_weight_marked():
    at = run_page("multihead", text="a b c d e", D=16, H=2, qk="1")
    assert_clean(at)
    r = multihead.run(multihead.Config(text="a b c d e", D=16, H=2))
    head = component(at, "attnviz.heatmap")
    z = map_z(at)
    np.testing.assert_array_equal(png(head), colour(z, 0.0, float(r.weights.max())))
    ticks = dict((text, f) for f, text in head["bar"]["ticks"])
    assert ticks["1/N"] == pytest.approx(0.2 / float(r.weights.max()))  # 1/N at N = 5
    assert float(ticks[f"{float(r.weights.max()):.3g}"]) == 1.0  # the bar ends at the largest
    top = colour(np.float32(r.weights.max()), 0.0, float(r.weights.max()))  # the grid too
    assert (png(grid(at)) == top).all(-1).any()


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(
    ("show", "causal"), [("weights", "false"), ("weights", "true"), ("scores", "false")]
)
def test_the_grid_and_the_map_carry_their_notes(lang, show, causal):
    """The notes under the grid (how to use it; the colour range of the weights, with its
    1/N mark, from the engine's numbers) and under the map are drawn by the two pictures,
    not as captions of their own."""
    at = run_page("multihead", lang=lang, text="a b c d e", D=16, H=2, show=show, causal=causal)
    assert_clean(at)
    r = multihead.run(multihead.Config(text="a b c d e", D=16, H=2, causal=causal == "true"))
    rule = "multihead.range_causal" if causal == "true" else "multihead.range"
    hi = float(r.weights.max())
    colours = [t(rule, lang, hi=hi, N=5, uniform=0.2)] if show == "weights" else []
    notes = grid(at)["notes"]
    assert notes == [t("multihead.grid_caption", lang), *colours]
    assert component(at, "attnviz.heatmap")["notes"] == [t("multihead.map_help", lang)]
    assert not {*notes, t("multihead.map_help", lang)} & {c.value for c in at.caption}


def test_steps_and_the_query_key_picture_wait_for_their_toggles():
    at = run_page("multihead", text="a b c d")
    assert_clean(at)
    assert not figures(at) and component(at, "attnviz.heatmap")  # the map alone
    assert not [c for c in at.get("bidi_component") if c.proto.component_name == "attnviz.steps"]
    assert not any(line.startswith("s_{") for line in map(chain, latex(at)))
    at.toggle(key="follow").set_value(True).run()
    assert any(line.startswith("s_{1,1}") for line in map(chain, latex(at)))
    assert len(step_charts(at)["a_row"]) == 4  # the steps' charts, one bar per key


@pytest.mark.parametrize("toggle", ["follow", "qkview"])
def test_row_i_and_column_j_are_picked_only_while_a_view_uses_them(toggle):
    """No weight followed: no cell outlined on the map; the steps or the query–key space
    each outline the cell picked. The map alone picks: no sliders for i and j."""
    at = run_page("multihead", text="a b c d")
    assert component(at, "attnviz.heatmap")["selected"] is None
    at.toggle(key=toggle).set_value(True).run()
    assert component(at, "attnviz.heatmap")["selected"] == [0, 0]  # before any click
    pick(at, 3, 2).run()
    assert_clean(at)
    assert component(at, "attnviz.heatmap")["selected"] == [2, 1]
    assert not [s for s in at.slider if s.key in ("i", "j")]
    assert (at.query_params["i"], at.query_params["j"]) == ("3", "2")  # a link keeps it


def test_the_head_slider_picks_the_tile_and_the_map():
    text = "the cat sat on the mat because the mat was warm"
    at = run_page("multihead", text=text, head=6)
    assert_clean(at)
    r = multihead.run(multihead.Config(text=text))
    assert grid(at)["selected"] == [1, 1]  # head 6 = tile (row 2, column 2) of 4 per row
    name = t("multihead.dl_grid", "en")  # the grid saves its own PNG, drawn for a handout
    save = grid(at)["save"]
    assert (save["label"], save["file"]) == (t("app.download_png", "en", name=name), f"{name}.png")
    assert save["tokens"] == token_labels(r.tokens, escape=False)  # each tile's rows, columns
    ticks = dict((label, f) for f, label in save["bar"]["ticks"])  # the enlarged map's bar
    assert ticks["1/N"] == pytest.approx(1 / len(r.tokens) / r.weights.max())
    np.testing.assert_allclose(map_z(at), r.weights[5], atol=1e-6)


@pytest.mark.parametrize("score", ["dot", "scaled_dot", "bilinear", "mlp", "query_only"])
@pytest.mark.parametrize("show", ["weights", "scores"])
def test_picked_weight_ends_on_the_maps_cell(score, show):
    text = "the cat sat on the mat"
    at = run_page(
        "multihead", text=text, D=16, H=4, score=score, causal="true", show=show, follow="true"
    )
    assert_clean(at)
    cfg = multihead.Config(text=text, D=16, H=4, score=score, causal=True)
    for head, i, j in ((3, 5, 2), (1, 2, 4), (4, 6, 6)):
        at.slider(key="head").set_value(head)
        pick(at, i, j).run()
        assert_clean(at)
        assert component(at, "attnviz.heatmap")["selected"] == [i - 1, j - 1]  # outlined
        cell = float(map_z(at)[i - 1, j - 1])
        lines = [chain(line) for line in latex(at)]  # the score and softmax set one step a line
        at_score = next(n for n, line in enumerate(lines) if line.startswith(f"s_{{{i},{j}}}"))
        score_line, weight_line = lines[at_score], lines[at_score + 1]  # softmax, or the mask
        if show == "scores":
            assert last_number(score_line) == pytest.approx(cell, rel=6e-3, abs=1e-6)
        elif j > i:  # causal: the mask zeroes it
            assert cell == 0 and r"-\infty" in weight_line
        else:
            assert last_number(weight_line) == pytest.approx(cell, rel=6e-3, abs=1e-6)
        shown = step_charts(at)["s_row" if show == "scores" else "a_row"]
        assert float(shown[j - 1]) == pytest.approx(cell, abs=1e-6)  # the row chart agrees
        # every chart draws the lesson's steps of that weight
        assert_step_charts(
            at, multihead_probe.follow(multihead_probe.Pick(cfg, head - 1, i - 1, j - 1)).steps
        )


QUERY, KEY = t("steps.qk_query", "en"), t("steps.qk_key", "en")  # the legend names


def test_query_key_points_are_the_probes_projection():
    text = "the cat sat on the mat because the mat was warm"
    at = run_page("multihead", text=text, D=32, H=4, head=3, i=4, space_k=3, qkview="true")
    assert_clean(at)
    qk = next(f for f in figures(at) if any(t.get("name") == QUERY for t in f["data"]))
    traces = {t["name"]: t for t in qk["data"] if t.get("name") in (QUERY, KEY)}
    # head 3, query 4, its top 3 keys; that these points are the head's own q and k,
    # projected, is tests/lessons/test_multihead_probe.py's
    probe = multihead_probe.Probe(multihead.Config(text=text, D=32, H=4), 2, 3, 3, "each")
    space = multihead_probe.qk(probe).space
    for name, want in ((QUERY, space.queries), (KEY, space.keys)):
        points = np.stack([decode(traces[name]["x"]), decode(traces[name]["y"])], 1)
        np.testing.assert_allclose(points, want, atol=1e-6)
    lines = [t for t in qk["data"] if t.get("mode") == "lines"]
    assert len(lines) == 3  # the top 3 keys of query 4
    assert any("centring the queries removes" in c.value.lower() for c in at.caption)


def test_query_only_says_it_has_no_query_key_space():
    at = run_page(
        "multihead", text="a b c", D=16, H=2, score="query_only", follow="true", qkview="true"
    )
    assert_clean(at)
    assert any("never reads a key" in i.value for i in at.info)
    assert not any(t.get("name") == QUERY for f in figures(at) for t in f["data"])
    assert any(
        line.startswith("s_{1,1}") for line in map(chain, latex(at))
    )  # the steps are still there


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_sharpness_table_has_a_row_per_head_of_the_run(lang):
    at = run_page("multihead", lang=lang, text="a b c d e", D=16, H=4, causal="true")
    assert_clean(at)
    r = multihead.run(multihead.Config(text="a b c d e", D=16, H=4, causal=True))
    header = [t(f"multihead.{c}", lang) for c in ("col_entropy_causal", "col_max")]
    (table,) = number_tables(at)
    assert list(table.columns) == [t("multihead.col_head", lang), *header]
    assert list(table.iloc[:, 0]) == [1, 2, 3, 4]  # h, as the tiles and the head slider count
    np.testing.assert_allclose(table[header[0]], r.entropy, atol=5e-5)  # to 4 decimals
    np.testing.assert_allclose(table[header[1]], r.max_weight, atol=5e-5)


@pytest.mark.parametrize(("pe", "disabled"), [("none", True), ("sinusoidal", False)])
def test_how_positions_enter_is_offered_only_when_there_are_positions(pe, disabled):
    at = run_page("multihead", pe=pe)
    assert_clean(at)
    assert at.radio(key="pe_mode").disabled is disabled


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_step_of_h_past_the_divisors_keeps_every_other_control(lang):
    """The run that moves H starts again with every control set anew: it had lost those
    drawn with their defaults (the language and the example text went back)."""
    at = run_page("multihead", lang=lang, D=24, H=12)
    at.slider(key="H").set_value(7).run()
    assert_clean(at)
    assert at.slider(key="H").value == 6 and at.radio(key="lang").value == lang
    assert at.text_input(key="text").value == t("multihead.default_text", lang)
    expected = t("errors.heads_next", lang, width=24, H=7, next=6)
    assert [i.value for i in at.info] == [expected]


@pytest.mark.parametrize("causal", [False, True])
def test_the_steps_csv_files_speak_the_readers_language(causal):
    """A handout's CSV: 「l」 and 「term」 headed in Japanese as the charts say them, the file
    named as its button, and the mask's column only where it masks, saying what 1 and 0 are."""
    at = run_page("multihead", lang="ja", follow="true", i=2, j=1, causal=str(causal).lower())
    assert_clean(at)
    panels = step_panels(at)
    assert panels["row"]["csv"]["file"] == "softmax 前後の行 i.csv"
    read = {name: list(csv.reader(io.StringIO(p["csv"]["text"]))) for name, p in panels.items()}
    header = {name: rows[0] for name, rows in read.items()}
    assert header["terms"] == ["D′ の次元 d", "q_2,d", "k_1,d", "項の値"]
    mask = ["m_2,l（1：key l を読む、0：マスクで禁止）"] if causal else []
    assert header["row"] == ["key l", "s_2,l", *mask, "a_2,l"]
    assert header["values"][0] == "D′ の次元 d"
    if causal:  # keys 1 and 2 read, the rest masked
        assert [row[2] for row in read["row"][1:4]] == ["1", "1", "0"]


def test_a_text_past_the_cap_is_cut_with_a_notice_not_dropped():
    """A paste of 2,100 characters: the input's own cap dropped it whole and kept the old
    sentence, silently; now the text is cut to the cap and the page says so."""
    at = run_page("multihead", lang="ja")
    long = "attention " * 210  # 2,100 characters, 210 tokens
    at.text_input(key="text").set_value(long).run()
    assert_clean(at)
    assert at.text_input(key="text").value == long[:MAX_TEXT_CHARS]
    assert [w.value for w in at.warning] == [t("app.text_cut", "ja", n=MAX_TEXT_CHARS)]
    assert [w.icon for w in at.warning] == [CUT_ICON]  # a notice told once (ui.page_run)
    assert len(grid(at)["names"]) == 8  # the page drew the text cut: 8 heads' tiles
    at.run()  # the cut was told: the view, as its URL reopens it, goes on without it
    assert not at.warning and at.text_input(key="text").value == long[:MAX_TEXT_CHARS]


def test_a_japanese_text_of_too_many_tokens_is_read_up_to_the_last_that_fits():
    """2,000 Japanese characters (within the cap) are about 1,300 tokens: the page reads
    the first 512, as the real model cuts to its own 512, and says so."""
    text = ("猫がマットの上に座った。マットは暖かかった。" * 91)[:MAX_TEXT_CHARS]
    at = run_page("multihead", lang="ja", text=text, H=2, D=16)
    assert_clean(at)
    [warning] = [w.value for w in at.warning]
    assert warning.startswith("テキストは") and f"最初の {MAX_N} トークン" in warning.replace(
        "\u00a0", " "
    )
    assert len(map_z(at)) == MAX_N  # the map is 512 × 512
    assert not at.error


def test_an_empty_sentence_says_so_where_the_figure_would_be():
    at = run_page("multihead", lang="ja")
    at.text_input(key="text").set_value("").run()
    [error] = at.error
    assert t("errors.no_tokens", "ja", hi=MAX_N) in error.value
    # in the page's right column (the figures'), not under the controls in the left
    right = at.columns[1]
    assert [e.value for e in right.error] == [error.value]


def test_the_weight_followed_names_its_tokens_and_the_cell_its_symbol():
    """The title named x₂ and x₅ only, not the tokens が and 上; the note said the cell was
    「softmax の行の最後の数」, which read as the row's last entry."""
    at = run_page("multihead", lang="ja", follow="true", i=2, j=5)
    assert_clean(at)
    title = next(h.value for h in at.subheader if "つの重みを追う" in h.value)
    assert "「が」が key" in title and "「上」を読む" in title
    [note] = [n for n in component(at, "attnviz.steps")["notes"] if "セル" in n]
    assert "最後の数" not in note and "a_{ij}" in note  # the symbol its formula ends on


def test_presenting_the_score_is_a_radio_and_keeps_its_choice():
    """With the sidebar open at 1280 × 720 the select box cut its choice, 「内積注意：qᵀk /
    √D′（ヘッドご…」; presenting, the scores are a radio of whole names. The choice survives
    each change of mode (a widget of the other kind is a new widget)."""
    at = run_page("multihead", lang="ja", score="bilinear")
    at.toggle(key="present").set_value(True).run()
    assert_clean(at)
    [menu] = [r for r in at.radio if r.key == "score"]
    assert menu.value == "bilinear" and not [s for s in at.selectbox if s.key == "score"]
    menu.set_value("mlp").run()
    at.toggle(key="present").set_value(False).run()
    assert at.selectbox(key="score").value == "mlp" and at.query_params["score"] in ("mlp", ["mlp"])


def test_presenting_the_intro_and_the_shapes_fold_away_covering_nothing():
    """At 1280 × 720 the intro filled the screen (the first map at y ≈ 660), and the shapes'
    popover, wider than its column, covered the map's row labels: presenting, the intro is
    an expander, and the shapes an expander under both columns."""
    at = run_page("multihead", lang="ja", present="true")
    assert_clean(at)
    labels = [e.label for e in at.expander]
    assert t("multihead.intro_label", "ja") in labels and t("multihead.pipeline", "ja") in labels
    assert not at.get("popover")
    for column in at.columns:  # the shapes' table lies under both columns, in neither
        assert t("multihead.pipeline", "ja") not in [e.label for e in column.expander]
    desk = run_page("multihead", lang="ja")
    assert any(t("multihead.intro", "ja") in m.value for m in desk.markdown)
    assert len(desk.get("popover")) == 1
