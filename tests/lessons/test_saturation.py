"""The √D lesson against S3's laws: Var(qᵀk) = D, Var(qᵀk/√D) = 1, saturation grows with D."""

import numpy as np
import pytest
import torch

from attnviz import formulas
from attnviz.errors import InputError
from attnviz.lessons import saturation


@pytest.fixture(scope="module")
def result():
    cfg = saturation.Config(N=8, rows=2000, seed=0)  # 8192 logits per D (the draw budget)
    return saturation.run(cfg)


def test_variance_grows_like_D_and_scaling_removes_it(result):
    curves = result.curves
    raw = curves[~curves["scaled"]]
    scaled = curves[curves["scaled"]]
    np.testing.assert_allclose(raw["variance"], raw["D"], rtol=0.05)
    np.testing.assert_allclose(scaled["variance"], 1.0, rtol=0.05)
    assert result.slope[False] == pytest.approx(1.0, abs=0.02)
    assert result.slope[True] == pytest.approx(0.0, abs=0.02)


def test_unscaled_softmax_saturates_monotonically(result):
    raw = result.curves[~result.curves["scaled"]]
    for col, sign in (("max_weight", 1), ("saturated", 1), ("entropy", -1)):
        steps = sign * np.diff(raw[col].to_numpy())
        assert (steps >= -0.01).all(), (col, steps)
    assert raw["saturated"].iloc[0] < 0.05 and raw["saturated"].iloc[-1] > 0.8
    assert raw["jacobian"].iloc[-1] < 0.2 * raw["jacobian"].iloc[0]
    scaled = result.curves[result.curves["scaled"]]
    assert scaled["saturated"].max() < 0.05  # √D keeps the softmax soft at every D


def test_draws_are_seeded_and_shaped():
    """The same seed gives the same logits (a URL reproduces a figure); another seed does not."""
    a = saturation.draw_logits(4, 100, seed=3)
    b = saturation.draw_logits(4, 100, seed=3)
    np.testing.assert_array_equal(a, b)
    assert not np.allclose(a, saturation.draw_logits(4, 100, seed=4))
    assert a.shape == (len(saturation.DS), 100, 4)


@pytest.mark.parametrize("D", [1, 4, 64])
def test_the_draw_of_q_k_matches_drawing_every_component(D):
    """The lesson draws a block's qᵀk_j as ‖q‖ z_j (‖q‖² ~ χ², z_j ~ N(0, 1)), not the
    components. Oracle: q and N keys drawn component by component by torch. Past the
    variance, the two agree on what a normal draw would miss: the heavy tails of a product
    (excess kurtosis 6 at D = 1, 6 / D in general) and the link between keys of one query,
    which share its q: the correlation of two keys' squared logits, 1 / (D + 3))."""
    N, R = 4, 60_000
    # 2000 rows a draw, the most the lesson draws; 30 seeds' draws
    draws = [saturation.draw_logits(N, 2000, seed=s)[saturation.DS.index(D)] for s in range(30)]
    ours = np.concatenate(draws).astype(np.float64)  # (R, N)
    g = torch.Generator().manual_seed(0)
    q = torch.randn(R, 1, D, generator=g, dtype=torch.float64)
    k = torch.randn(R, N, D, generator=g, dtype=torch.float64)
    theirs = (q * k).sum(-1).numpy()  # (R, N)

    def kurtosis(x):
        return float(((x - x.mean()) ** 4).mean() / x.var() ** 2 - 3)

    def linked(x):  # correlation of the squares of two keys' logits of one row
        return float(np.corrcoef(x[:, 0] ** 2, x[:, 1] ** 2)[0, 1])

    tails = 0.15 * 6 / D + 0.05  # a sample's kurtosis wanders (its 8th moment is large)
    assert kurtosis(ours) == pytest.approx(6 / D, abs=tails)
    assert kurtosis(ours) == pytest.approx(kurtosis(theirs), abs=2 * tails)
    assert linked(ours) == pytest.approx(1 / (D + 3), abs=0.02)
    assert linked(ours) == pytest.approx(linked(theirs), abs=0.03)
    assert ours.var() / D == pytest.approx(1.0, rel=0.03)


def test_jacobian_norm_matches_the_explicit_matrix():
    logits = torch.randn(50, 7, dtype=torch.float64) * 3
    a = torch.softmax(logits, -1)
    J = torch.diag_embed(a) - a[:, :, None] * a[:, None, :]  # (S, N, N)
    expected = torch.linalg.matrix_norm(J).mean()  # Frobenius
    autograd = torch.func.vmap(torch.func.jacrev(lambda s: torch.softmax(s, -1)))(logits)
    torch.testing.assert_close(autograd, J)
    stats = saturation.softmax_stats(logits)
    assert float(stats["jacobian"]) == pytest.approx(float(expected), rel=1e-9)
    entropy = -(a * a.log()).sum(-1).mean()
    assert float(stats["entropy"]) == pytest.approx(float(entropy), rel=1e-9)


def test_budget_caps_rows_and_bad_input_raises():
    assert saturation.rows_allowed(128, 2000) * 128 <= saturation.MAX_LOGITS
    assert saturation.rows_allowed(2, 100) == 100
    assert saturation.run(saturation.Config(N=128, rows=2000)).rows == 512
    with pytest.raises(InputError, match="N"):
        saturation.Config(N=0, rows=100)
    with pytest.raises(InputError, match="samples"):
        saturation.Config(N=4, rows=saturation.MAX_ROWS + 1)


@pytest.mark.parametrize("D", [1, 64, 4096])
def test_at_D_is_the_softmax_of_the_first_row_unscaled_and_scaled(result, D):
    at = result.at(D)
    raw = result.logits[saturation.DS.index(D)]  # (S, N)
    np.testing.assert_array_equal(at.logits, raw)
    row = torch.from_numpy(raw[0]).double()
    expected = [torch.softmax(row, -1), torch.softmax(row / D**0.5, -1)]
    np.testing.assert_allclose(at.example, torch.stack(expected).numpy(), atol=1e-6)
    assert list(at.stats.index) == [False, True]
    var = float(raw.astype(np.float64).var(ddof=1))  # the sample variance of the logits
    assert at.stats.loc[False, "variance"] == pytest.approx(var)
    assert at.stats.loc[True, "variance"] == pytest.approx(var / D)


def test_at_a_width_outside_the_grid_raises(result):
    with pytest.raises(InputError) as err:
        result.at(3)
    assert err.value.key == "choice" and "4096" in err.value.fields["choices"]


def test_formulas_are_the_scaled_dot_law(result):
    assert result.formulas == formulas.SATURATION
    assert "\\sqrt{D}" in result.formulas[0] and "D'" not in " ".join(result.formulas)


@pytest.mark.parametrize(("sigma_q", "sigma_k"), [(2.0, 0.5), (2.0, 2.0), (0.5, 1.0)])
def test_variance_is_D_sigma_q2_sigma_k2(sigma_q, sigma_k):
    """Issue 45, item 5 (S3): q, k with components of variances σ_q², σ_k² give
    Var(qᵀk) = D σ_q² σ_k², and √D leaves σ_q² σ_k², not 1. Oracle: independent draws of
    q ~ N(0, σ_q² I), k ~ N(0, σ_k² I) from torch, outside the lesson's prefix sums."""
    r = saturation.run(saturation.Config(N=8, rows=2000, sigma_q=sigma_q, sigma_k=sigma_k))
    law = (sigma_q * sigma_k) ** 2
    assert r.product == law
    raw, scaled = (r.curves[r.curves["scaled"] == s] for s in (False, True))
    np.testing.assert_allclose(raw["variance"] / raw["D"], law, rtol=0.06)
    np.testing.assert_allclose(scaled["variance"], law, rtol=0.06)
    g = torch.Generator().manual_seed(123)
    D = 256
    q = sigma_q * torch.randn(20000, D, generator=g, dtype=torch.float64)
    k = sigma_k * torch.randn(20000, D, generator=g, dtype=torch.float64)
    oracle = float((q * k).sum(-1).var())
    assert oracle / D == pytest.approx(law, rel=0.05)
    assert raw.set_index("D").loc[D, "variance"] == pytest.approx(oracle, rel=0.08)
    assert f"= {law:g}" in r.formulas[2] and "\\sigma_q^2 \\sigma_k^2" in r.formulas[1]


def test_the_entropy_is_Ent_not_H():
    """Issue 45, item 4: H is the number of heads; the entropy is Ent(a)."""
    assert formulas.SATURATION[-1].startswith(r"\mathrm{Ent}(\mathbf{a})")
    assert not any(f.startswith("H(") for f in formulas.SATURATION)
