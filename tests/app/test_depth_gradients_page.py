"""Gradients-by-depth page: Xiong et al.'s four panels, each beside the paper's direction,
the fitted 1/√L, the formula, the stream's length after each block, extremes."""

import re

import numpy as np
import pytest

from attnviz.i18n import t
from attnviz.lessons import depth_gradients as depth
from attnviz.lessons import depth_model, depth_paper_shape
from ui.export import NUMBER_TABLE

from .helpers import assert_clean, decode, figures, latex, run_page, sweep_controls


def lines(fig: dict) -> list[np.ndarray]:
    return [decode(tr["y"]) for tr in fig["data"] if tr.get("mode") == "lines+markers"]


def text(at) -> str:
    return " ".join(m.value for m in at.markdown)


def verdict_table(at) -> str:
    (html,) = [h.proto.body for h in at.get("html") if f"dataframe {NUMBER_TABLE}" in h.proto.body]
    return html


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_four_panels_their_verdicts_and_the_stream(lang):
    at = run_page("depth_gradients", lang=lang, D="64", seeds="1", L="4")
    assert_clean(at)
    a, b, c, d, stream = figures(at)
    grads = depth_model.layer_gradients(4, 64, 0)
    for fig, norm, key in ((a, "post", "a"), (b, "pre", "b")):
        (line,) = lines(fig)
        np.testing.assert_allclose(line, grads[norm]["W_2"], rtol=1e-4)
        assert fig["layout"]["title"]["text"].startswith(f"({key}) ")
    tr = depth.trend(depth.TrendConfig(D=64, seeds=1))
    for fig, norm in ((c, "post"), (d, "pre")):
        (line,) = lines(fig)
        want = tr.spread[tr.spread.norm == norm]["mean"]
        np.testing.assert_allclose(line, want, rtol=1e-5)
    (dashed,) = [x for x in d["data"] if x.get("mode") == "lines"]
    np.testing.assert_allclose(decode(dashed["y"]), tr.reference[1], rtol=1e-6)
    assert not [x for x in c["data"] if x.get("mode") == "lines"]  # 1/√L is pre-LN's law
    # the stream: post, pre and no LN, the mean length after each of 24 blocks
    means = tr.length_spread.groupby("norm", sort=False)["mean"]
    for got, (_, want) in zip(lines(stream), means, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-5)
    assert stream["layout"]["yaxis"]["type"] == "log"
    # the table: each panel's paper direction, measured factor and verdict, as computed
    panels = depth.panels(depth.run(depth.Config(L=4, D=64, seeds=1)), tr)
    html = re.sub(r">\s+<", "><", verdict_table(at))
    for p in panels:
        cells = (
            t(f"depth_gradients.what_{p.key}", lang),
            t(f"depth_gradients.dir_{p.paper}", lang),
            t(
                "depth_gradients.here",
                lang,
                ratio=p.ratio,
                dir=t(f"depth_gradients.dir_{p.measured}", lang),
            ),
            t("depth_gradients.agrees" if p.agrees else "depth_gradients.differs", lang),
        )
        assert "".join(f"<td>{c}</td>" for c in cells) in html, p
    shown = text(at)
    assert f"{tr.ratios['pre']:.2f}" in shown and f"{tr.ratios['post']:.2f}" in shown
    assert t("depth_gradients.why_a", lang, ratio=panels[0].ratio) in shown
    assert latex(at) == tr.formulas


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_each_sentence_states_the_panel_it_measures(lang):
    """Unit inputs: (b) differs (falls) and (d) agrees, and only (b)'s why shows; inputs √D
    larger: (b) agrees and (d) differs, with the stream's own growth (×1.0x, not ×4)."""
    for x_scale, shown, hidden in (
        ("unit", "why_b_falls", "why_d_same"),
        ("sqrt_d", "why_d_same", "why_b_falls"),
    ):
        at = run_page("depth_gradients", lang=lang, D="64", seeds="1", L="6", x=x_scale)
        assert_clean(at)
        cfg = depth.Config(L=6, D=64, seeds=1, x_scale=x_scale)
        tr = depth.trend(cfg.trend)
        panel = {p.key: p for p in depth.panels(depth.run(cfg), tr)}
        key = "b" if shown == "why_b_falls" else "d"
        assert not panel[key].agrees
        sentence = t(
            f"depth_gradients.{shown}", lang, ratio=panel[key].ratio, growth=tr.growth["pre"]
        )
        assert sentence in text(at)
        lead = t(f"depth_gradients.{hidden}", lang, ratio=0, growth=0).split("**")[1]
        assert lead not in text(at)
        assert panel["b" if key == "d" else "d"].agrees


def test_the_stream_sentence_gives_the_charted_lengths():
    at = run_page("depth_gradients", D="64", seeds="1", L="2")
    assert_clean(at)
    tr = depth.trend(depth.TrendConfig(D=64, seeds=1))
    means = tr.length_spread.groupby("norm")["mean"]
    assert means.last()["post"] == pytest.approx(8.0, rel=1e-4)  # √D: every block ends in an LN
    sentence = t(
        "depth_gradients.stream_text",
        "en",
        post=means.last()["post"],
        sqrtD=8.0,
        first=means.first()["pre"],
        pre=tr.growth["pre"],
        none=f"{tr.growth['none']:,.0f}",
    )
    assert sentence in text(at) and tr.growth["none"] > 100 * tr.growth["pre"] > 100


def test_block_anatomy_points_at_the_stream_chart_and_claims_no_law():
    """Its caption said stacked blocks lengthen the stream "about like √L (see Gradients by
    depth)", a chart that page did not have; now it names the page that draws it."""
    for lang in ("en", "ja"):
        caption = t("block_anatomy.norms_pre", lang, sqrtD=8.0, first=1.0, last=2.0)
        assert t("depth_gradients.nav", lang) in caption and "√L" not in caption
    at = run_page("depth_gradients", D="64", seeds="1", L="2")
    titles = [f["layout"]["title"]["text"] for f in figures(at)]
    assert titles[-1] == t("depth_gradients.stream_chart", "en", D=64)


def test_matrix_choice_shows_that_matrix():
    at = run_page("depth_gradients", D="64", seeds="1", L="3", param="W_V")
    assert_clean(at)
    ref = depth_model.layer_gradients(3, 64, 0)
    post, pre = (lines(f)[0] for f in figures(at)[:2])
    np.testing.assert_allclose(post, ref["post"]["W_V"], rtol=1e-4)
    np.testing.assert_allclose(pre, ref["pre"]["W_V"], rtol=1e-4)


@pytest.mark.parametrize(
    "params",
    [
        {"L": "1", "seeds": "1", "D": "64", "param": "W_V"},
        {"L": "99", "seeds": "0", "D": "65", "param": "bad"},
    ],
)
def test_extremes(params):
    at = run_page("depth_gradients", **params)
    assert_clean(at)
    if params["L"] == "1":  # one layer: the per-layer panels have no direction to compare
        html = verdict_table(at)
        assert t("depth_gradients.what_a", "en") not in html
        assert t("depth_gradients.what_d", "en") in html


def test_every_control_at_its_extremes():
    at = run_page("depth_gradients", D="64", seeds="1", L="4")
    assert sweep_controls(at) > 5


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize(
    ("x_scale", "param"), [("unit", "W_2"), ("sqrt_d", "W_2"), ("unit", "W_V")]
)
def test_per_layer_sentence_reads_the_chart_it_describes(lang, x_scale, param):
    """The sentence under the per-layer panels gives their own layer-L / layer-1 ratios of
    the matrix charted (the old text claimed every pre-LN layer shrinks like 1/√L, which
    the chart contradicts; then it named and gave W₂'s whichever matrix was charted: ×0.91
    with post-LN under a chart of W_V's, which grows ×2.2)."""
    at = run_page("depth_gradients", lang=lang, D="64", seeds="1", L="6", x=x_scale, param=param)
    assert_clean(at)
    r = depth.run(depth.Config(L=6, D=64, seeds=1, x_scale=x_scale)).last_over_first[param]
    post, pre = (lines(f)[0] for f in figures(at)[:2])
    assert r["pre"] == pytest.approx(pre[-1] / pre[0], rel=1e-5)
    assert r["post"] == pytest.approx(post[-1] / post[0], rel=1e-5)
    sentence = t("depth_gradients.per_layer", lang, L=6, param=param, **r)
    assert sentence in text(at) and f"\\partial {param}\\|" in sentence
    assert "Xiong" in text(at)
    every_layer = "every layer's gradient shrinks" if lang == "en" else "すべての層の勾配"
    assert every_layer not in text(at)


def test_each_pair_shares_one_y_axis_from_zero():
    """(a) and (b) on one scale from 0, (c) and (d) on another, each reaching the highest
    mean + std of the pair: with inputs √D larger pre-LN's gradients are ten times smaller
    than post-LN's, and a panel on its own axis drew 0.55 … 0.65 as a steep line."""
    at = run_page("depth_gradients", D="64", seeds="2", L="6", x="sqrt_d")
    assert_clean(at)
    a, b, c, d, _ = figures(at)
    cfg = depth.Config(L=6, D=64, seeds=2, x_scale="sqrt_d")
    r, tr = depth.run(cfg), depth.trend(cfg.trend)
    for pair, stats in (((a, b), r.spread["W_2"]), ((c, d), tr.spread)):
        ranges = [tuple(fig["layout"]["yaxis"]["range"]) for fig in pair]
        assert ranges[0] == ranges[1] and ranges[0][0] == 0
        assert ranges[0][1] >= (stats["mean"] + stats["std"]).max()
    pre = tr.spread[tr.spread.norm == "pre"]["mean"]
    assert pre.max() < 0.5 * c["layout"]["yaxis"]["range"][1]  # pre-LN's are the smaller


def test_the_verdict_sits_above_the_panels_and_names_the_panels_that_agree():
    at = run_page("depth_gradients", D="64", seeds="1", L="6")
    assert_clean(at)
    cfg = depth.Config(L=6, D=64, seeds=1)
    panels = depth.panels(depth.run(cfg), depth.trend(cfg.trend))
    agree = [f"({p.key})" for p in panels if p.agrees]
    summary = t(
        "depth_gradients.summary",
        "en",
        n=len(agree),
        of=4,
        which=", ".join(agree),
        loss=t("depth_gradients.loss_xent_short", "en"),
    )
    assert summary in text(at)
    order = [(n.type, str(getattr(n, "value", ""))) for n in in_order(at.main)]
    first_chart = next(i for i, (kind, _) in enumerate(order) if kind == "plotly_chart")
    said = next(i for i, (kind, v) in enumerate(order) if kind == "markdown" and summary in v)
    assert said < first_chart
    assert order[said][1] == f"### {t('depth_gradients.verdict', 'en')}\n\n{summary}"  # headed
    table = next(i for i, (kind, v) in enumerate(order) if kind == "html" and NUMBER_TABLE in v)
    assert table < first_chart


def in_order(node):
    """Every element under ``node``, top to bottom as the page draws them."""
    for child in getattr(node, "children", {}).values():
        yield child
        yield from in_order(child)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_loss_is_a_choice_and_its_formula_is_shown(lang):
    """Cross-entropy by default; the fixed direction as the option, with its own formula and
    numbers: (c) rises ×1.27 with it at D = 128 where the cross-entropy keeps it flat."""
    for loss in depth_model.LOSSES:
        at = run_page("depth_gradients", lang=lang, D="64", seeds="1", L="2", loss=loss)
        assert_clean(at)
        tr = depth.trend(depth.TrendConfig(D=64, seeds=1, loss=loss))
        assert latex(at)[0] == depth_model.LOSSES[loss].formula == tr.formulas[0]
        assert f"{tr.ratios['post']:.2f}" in text(at)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_fitted_line_is_drawn_only_where_it_fits_with_its_r2(lang):
    at = run_page("depth_gradients", lang=lang, D="64", seeds="1", L="2")
    assert_clean(at)
    _, _, c, d, _ = figures(at)
    tr = depth.trend(depth.TrendConfig(D=64, seeds=1))
    for fig, norm in ((c, "post"), (d, "pre")):
        fit = tr.fits[norm]
        dashed = [x for x in fig["data"] if x.get("mode") == "lines"]
        assert bool(dashed) == fit.fits
        if dashed:
            assert dashed[0]["name"] == t("depth_gradients.reference_r2", lang, r2=fit.r2)
        key = "fit_drawn" if fit.fits else "fit_not_drawn"
        short = t(f"depth_gradients.short_{norm}", lang)
        assert t(f"depth_gradients.{key}", lang, norm=short, r2=fit.r2, min=depth.MIN_R2) in text(
            at
        )
    assert tr.fits["pre"].fits and not tr.fits["post"].fits  # unit inputs: pre-LN falls as 1/√L


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_paper_shaped_model_is_measured_on_request(lang):
    """Off by default (it takes seconds); on, (a) and (b) on an encoder–decoder of Xiong et
    al.'s shape: the lines are the lesson's means, both panels on one axis from 0, and the
    sentences give its ratios and what the cross-attention's part is."""
    off = run_page("depth_gradients", lang=lang, D="64", seeds="1", L="2")
    assert len(figures(off)) == 5
    at = run_page("depth_gradients", lang=lang, D="64", seeds="1", L="2", shape="true")
    assert_clean(at)
    r = depth_paper_shape.run(depth_paper_shape.Config(seeds=1))
    post, pre = figures(at)[4:6]
    for fig, norm in ((post, "post"), (pre, "pre")):
        want = r.spread[r.spread.norm == norm]
        for line, got in zip(want["line"].unique(), lines(fig), strict=True):
            np.testing.assert_allclose(got, want[want.line == line]["mean"], rtol=1e-5)
        assert fig["layout"]["yaxis"]["range"] == post["layout"]["yaxis"]["range"]
        assert fig["layout"]["yaxis"]["range"][0] == 0
    shown = text(at)
    assert f"{r.ratios['post']['decoder']:.2f}" in shown
    if r.cross_share >= 0.5:
        cross = t(
            "depth_gradients.shape_cross",
            lang,
            with_x=r.ratios["post"]["decoder"],
            alone_x=r.ratios["post"]["decoder_alone"],
            share=r.cross_share,
        )
        assert cross in shown
    b = "shape_b_same" if r.direction("pre", "decoder") == "same" else "shape_b_differs"
    assert t(f"depth_gradients.{b}", lang) in shown
