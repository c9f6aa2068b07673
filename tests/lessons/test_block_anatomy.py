"""Block anatomy: LN makes each token mean 0 / variance 1; post-LN output length ≈ √D."""

import numpy as np
import pytest

from attnviz.lessons import layernorm


@pytest.mark.parametrize("norm", ["post", "pre"])
def test_ln_rows_are_standardised(norm):
    r = layernorm.run("the cat sat on the mat", norm, 32, 4, 128, 0)
    np.testing.assert_allclose(r.stats["mean_after"], 0, atol=1e-5)
    np.testing.assert_allclose(r.stats["var_after"], 1, atol=1e-3)
    assert (np.abs(r.stats["mean_before"]) > 1e-3).any()
    assert r.norms.shape == (len(r.steps), 6)


def test_post_ln_output_has_length_sqrt_d_and_none_has_no_ln():
    r = layernorm.run("a b c d", "post", 64, 4, 256, 1)
    np.testing.assert_allclose(r.norms[-1], 8.0, rtol=1e-3)
    n = layernorm.run("a b c d", "none", 64, 4, 256, 1)
    assert n.ln_hat is None and n.stats.empty
    assert n.shapes[n.steps.index("ReLU(hW₁+b₁)")] == "4 × 256"
