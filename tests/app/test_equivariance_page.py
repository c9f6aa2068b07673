"""The equivariance page: its maps, errors and verdict are the lesson's run, read back from
the figures, both languages."""

import numpy as np
import pytest

from attnviz.i18n import t
from attnviz.lessons import equivariance

from .helpers import assert_clean, decode, figures, latex, metrics, run_page


def maps_and_diff(at):
    triplet, diff = figures(at)[:2]
    A, A_P, PAPt = (decode(t["z"]) for t in triplet["data"])
    return A, A_P, PAPt, decode(diff["data"][0]["z"])


def assert_draws(at, r, lang="en", h=1):
    """The page draws run ``r``: head h's three maps, the difference relative to the largest
    output (|f(PX) − P f(X)| / max|f(X)|, on a colour scale of at least ±1, "rounding only"
    written on it when the verdict says so), both errors and the verdict (whether
    f(PX) = P f(X) holds is tests/lessons/test_equivariance.py's)."""
    A, A_P, PAPt, diff = maps_and_diff(at)
    for shown, want in ((A, r.A), (A_P, r.A_P), (PAPt, r.PAPt)):
        np.testing.assert_allclose(shown, want[h - 1], atol=1e-7)
    largest = np.abs(r.out).max()
    np.testing.assert_allclose(diff, r.diff / largest, atol=1e-7)
    fig = figures(at)[1]
    trace = fig["data"][0]
    assert trace["zmax"] == -trace["zmin"] >= 1.0
    notes = [a["text"] for a in fig["layout"].get("annotations", [])]
    rounding = t("equivariance.rounding_only", lang, error=r.error, rel=r.error / largest)
    assert notes == ([rounding] if r.verdict == "holds" else [])
    bar = trace["colorbar"]["title"]["text"]
    assert bar == t("equivariance.diff_bar", lang, scale=largest)
    assert [m.value for m in metrics(at)] == [f"{r.error:.2e}", f"{r.attn_error:.2e}"]
    verdict = {"identity": at.info, "holds": at.success, "breaks": at.warning}[r.verdict]
    assert t(f"equivariance.{r.verdict}", lang) in [v.value for v in verdict]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_without_pe_the_page_draws_the_run(lang):
    at = run_page("equivariance", lang=lang, pe="none", perm="shuffle", pseed=3)
    assert_clean(at)
    text = at.text_input(key="text").value
    r = equivariance.run(equivariance.Config(text, perm="shuffle", perm_seed=3))
    assert r.verdict == "holds"  # the case this test is for
    assert_draws(at, r, lang)


@pytest.mark.parametrize(
    "lang,pe,mode",
    [("ja", "sinusoidal", "add"), ("en", "learned", "add"), ("en", "sinusoidal", "concat")],
)
def test_with_positions_the_page_draws_the_run(lang, pe, mode):
    at = run_page("equivariance", lang=lang, pe=pe, pe_mode=mode)
    assert_clean(at)
    text = at.text_input(key="text").value
    r = equivariance.run(equivariance.Config(text, pe=pe, pe_mode=mode))
    assert r.verdict == "breaks"  # the case this test is for
    assert_draws(at, r, lang)


def test_controls_rerun_cleanly():
    at = run_page("equivariance")
    at.selectbox(key="perm").set_value("swap").run()
    at.number_input(key="j").set_value(4).run()
    assert_clean(at)
    text = at.text_input(key="text").value
    assert_draws(at, equivariance.run(equivariance.Config(text, perm="swap", i=0, j=3)))
    at.selectbox(key="pe").set_value("sinusoidal").run()
    at.radio(key="H").set_value("8").run()
    at.radio(key="head").set_value("8").run()  # heads h = 1 … H
    assert_clean(at)
    cfg = equivariance.Config(text, perm="swap", i=0, j=3, pe="sinusoidal", H=8)
    assert_draws(at, equivariance.run(cfg), h=8)
    at.selectbox(key="perm").set_value("typed").run()
    assert at.info and not [w for w in at.warning if "“”" in w.value]  # empty: a hint
    at.text_input(key="order").input("5,4,3,2,1").run()  # positions 1 … N
    assert_clean(at)
    assert not [w for w in at.warning if "5,4,3,2,1" in w.value]
    typed = maps_and_diff(at)
    at.text_input(key="order").input("4,4,x").run()
    assert_clean(at)
    assert [w for w in at.warning if "4,4,x" in w.value]  # translated notice; reverse used
    np.testing.assert_array_equal(maps_and_diff(at)[3], typed[3])  # 5,4,3,2,1 is the reverse


@pytest.mark.parametrize(
    "params",
    [
        dict(text="", perm="swap", i=47, j=47),
        dict(
            text="<script>alert(1)</script> " * 30,
            D="256",
            H="8",
            pe="learned",
            pe_mode="concat",
            norm="none",
        ),
        dict(D="abc", H="0", perm="nope", pseed="-1", order="x"),
        dict(text="one", perm="reverse", pe="sinusoidal"),
    ],
)
def test_extremes_and_hostile_values(params):
    at = run_page("equivariance", **params)
    assert_clean(at)


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize(
    ("params", "present", "absent"),
    [
        ({"pe": "none", "norm": "post"}, ["\\mathrm{LN}(X + \\mathcal{A}^M(X))"], ["\\mathrm{PE}"]),
        (
            {"pe": "sinusoidal", "norm": "pre"},
            ["PX + E", "\\mathcal{A}^M(\\mathrm{LN}(X))"],
            ["[PX"],
        ),
        ({"pe": "learned", "pe_mode": "concat", "norm": "none"}, ["[PX;\\ E]"], ["\\mathrm{LN}"]),
    ],
)
def test_formulas_shown_are_those_of_the_config_run(lang, params, present, absent):
    at = run_page("equivariance", lang=lang, **params)
    assert_clean(at)
    shown = latex(at)
    text = at.text_input(key="text").value
    assert shown == equivariance.run(equivariance.Config(text, **params)).formulas
    joined = " ".join(shown)
    assert all(p in joined for p in present) and not any(a in joined for a in absent)


def test_D_is_a_slider_over_the_widths_kept_by_name():
    at = run_page("equivariance", D="256", pe="sinusoidal", pe_mode="concat")
    assert_clean(at)
    assert at.select_slider(key="D").value == "256"
    assert maps_and_diff(at)[3].shape[1] == 512  # concatenated: width D + D
    at.select_slider(key="D").set_value("8").run()
    assert_clean(at)
    assert maps_and_diff(at)[3].shape[1] == 16


def test_swap_caption_and_cut_notice_come_from_the_run():
    at = run_page("equivariance", text="a b c", perm="swap", i=1, j=48)
    assert_clean(at)
    assert any("“c”" in c.value or "「c」" in c.value for c in at.caption)  # j = 47 → last
    assert_draws(at, equivariance.run(equivariance.Config("a b c", perm="swap", i=0, j=47)))
    at = run_page("equivariance", text=" ".join(f"w{k}" for k in range(60)))
    assert_clean(at)
    assert any("48" in i.value for i in at.info)
    assert decode(figures(at)[0]["data"][0]["z"]).shape == (48, 48)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_positions_and_heads_are_numbered_from_1(lang):
    """§2: tokens x_1 … x_N and heads h = 1 … H in every label the reader sees."""
    at = run_page("equivariance", lang=lang, text="a b c", perm="swap", i=1, j=2, H=2)
    assert_clean(at)
    assert at.radio(key="head").options == ["1", "2"]
    swap = (
        "位置\u00a01（「a」）と位置\u00a02（「b」）"  # a number keeps its neighbours
        if lang == "ja"
        else "position 1 (“a”) with position 2 (“b”)"
    )
    assert any(swap in c.value for c in at.caption)
    assert decode(figures(at)[2]["data"][0]["z"])[0].tolist() == [0, 1, 0]  # slot 1 ← old slot 2
    triplet = figures(at)[0]
    assert triplet["layout"]["xaxis"]["ticktext"] == ["1:a", "2:b", "3:c"]
    assert triplet["layout"]["xaxis2"]["ticktext"] == ["1:b", "2:a", "3:c"]
    diff = figures(at)[1]["data"][0]
    assert decode(diff["x"])[0] == 1  # output dimensions 1 … W
    assert ("次元" if lang == "ja" else "dimension") in diff["hovertemplate"]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_encoding_table_is_E_and_P_the_permutation(lang):
    """Item 1.7: one symbol per idea, E = [p_1 … p_N]ᵀ for positions, P for the permutation."""
    at = run_page("equivariance", lang=lang, pe="sinusoidal")
    assert_clean(at)
    joined = " ".join(latex(at))
    assert "PX + E" in joined and "P(X + E)" in joined
    table = r"E = [\mathbf{p}_1, \dots, \mathbf{p}_N]^\top"
    symbols = [c.value for c in at.caption if table in c.value]
    assert symbols and "P" in symbols[0]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_swap_past_the_end_shows_the_last_position_in_its_input(lang):
    """The inputs held 9 while the swap used position 3, the sentence's last."""
    at = run_page("equivariance", lang=lang, text="a b c", perm="swap", i=1, j=9)
    assert_clean(at)
    assert (at.number_input(key="i").value, at.number_input(key="j").value) == (1, 3)
    assert [i.value for i in at.info] == [t("equivariance.swap_moved", lang, N=3)]
    assert at.query_params["j"] == "3"
    at.text_input(key="text").set_value("a b c d e").run()  # a longer sentence: no notice
    assert at.number_input(key="j").value == 3 and not at.info
