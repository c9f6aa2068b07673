"""The real-model page's LayerNorm section (issue 45, item 5, S13): the trained γ and β drawn
are the lesson's, the check and D_ff = 4D read off its run, in both languages; its controls
are kept in the URL (the laws are tests/lessons/real_model/test_layernorm.py's)."""

import re

import numpy as np
import pytest

from attnviz.i18n import t
from attnviz.lessons.real_model import layernorm
from pages.real import real_model_layernorm

from ..lessons.real import TEXT
from .helpers import assert_clean, decode, figures, latex, run_page


@pytest.mark.parametrize(
    ("lang", "params"), [("en", {}), ("ja", {"ln_layer": 4, "ln_site": "ln_2"})]
)
def test_the_section_draws_gamma_beta_and_the_check_of_its_run(lang, params):
    at = run_page("real_model", lang=lang, text=TEXT, **params)
    assert_clean(at)
    layer, site = int(params.get("ln_layer", 1)) - 1, params.get("ln_site", "ln_1")
    r = layernorm.run(layernorm.Config(text=TEXT, layer=layer, site=site))
    title = t("real_model_layernorm.lines_title", lang, n=len(r.tokens))
    figs = figures(at)
    at_lines = next(
        k for k, f in enumerate(figs) if f["layout"].get("title", {}).get("text") == title
    )
    gb, lines = figs[at_lines - 1], figs[at_lines]
    np.testing.assert_allclose(decode(gb["data"][0]["y"]), r.gamma, rtol=1e-6)
    np.testing.assert_allclose(decode(gb["data"][1]["y"]), r.beta, rtol=1e-6)
    d = r.components[0]
    np.testing.assert_allclose(decode(lines["data"][0]["x"]), r.x_hat[:, d], rtol=1e-5)
    np.testing.assert_allclose(decode(lines["data"][0]["y"]), r.out[:, d], rtol=1e-5)
    shown = "\n\n".join(m.value for m in at.markdown)  # runs of text are one element
    sci = real_model_layernorm.sci
    assert sci(7.9e-7) == r"7.9 \times 10^{-7}"
    sd, out_sd = np.sqrt(r.x_var), np.sqrt(r.out_var)
    numbers = dict(
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
    assert t("real_model_layernorm.measured", lang, **numbers) in shown
    g, b = r.gamma, r.beta
    pair = dict(g_mean=g.mean(), g_std=g.std(), g_min=g.min(), g_max=g.max())
    pair |= dict(b_mean=b.mean(), b_std=b.std())
    assert t("real_model_layernorm.trained", lang, **pair) in shown
    # the table: a row a token, its numbers as measured, rounded to 3 places
    (html,) = [
        h.proto.body
        for h in at.get("html")
        if t("real_model_layernorm.col_mu", lang) in h.proto.body
    ]
    body = re.sub(r"\s+", " ", html.split("<tbody>")[1])
    rows = re.findall(r"<tr>(.*?)</tr>", body)
    assert len(rows) == len(r.tokens)
    for row, k in zip(rows, range(len(r.tokens)), strict=True):
        cells = re.findall(r"<td>(.*?)</td>", row)
        want = (r.x_mean[k], sd[k], r.hat_mean[k], r.hat_var[k], r.out_mean[k], out_sd[k])
        assert [float(c) for c in cells[1:]] == pytest.approx(want, abs=6e-4)
    assert [float(re.findall(r"<td>(.*?)</td>", row)[4]) for row in rows] == [1.0] * len(rows)
    assert t("real_model_layernorm.d_ff", lang, D=384, D_ff=1536, k=4.0) in shown
    assert all(f in latex(at) for f in r.formulas)
