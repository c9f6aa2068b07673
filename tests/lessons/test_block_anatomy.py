"""Block anatomy: LN makes each token mean 0 / variance 1; post-LN output length ≈ √D."""

import numpy as np
import pytest

from attnviz.errors import InputError
from attnviz.lessons import block_anatomy
from attnviz.lessons.block_anatomy import Config, heads, run


@pytest.mark.parametrize("norm", ["post", "pre"])
def test_ln_rows_are_standardised(norm):
    r = run(Config("the cat sat on the mat", norm, D=32, H=4, ff=4))
    np.testing.assert_allclose(r.stats["mean_after"], 0, atol=1e-5)
    np.testing.assert_allclose(r.stats["var_after"], 1, atol=1e-3)
    assert (np.abs(r.stats["mean_before"]) > 1e-3).any()
    assert r.norms.shape == (len(r.steps), 6)
    assert list(r.stats["token"])[:2] == ["1:the", "2:cat"]


def test_post_ln_output_has_length_sqrt_d_and_none_has_no_ln():
    r = run(Config("a b c d", "post", D=64, H=4, ff=4, seed=1))
    np.testing.assert_allclose(r.norms[-1], 8.0, rtol=1e-3)
    n = run(Config("a b c d", "none", D=64, H=4, ff=4, seed=1))
    assert n.ln_hat is None and n.stats.empty
    assert n.shapes[n.steps.index("ReLU(X'W₁+b₁)")] == "4 × 256"


def test_valid_heads_are_the_divisors_of_D_and_others_name_the_nearest():
    assert heads(24) == [1, 2, 3, 4, 6, 8, 12, 24]
    assert heads(512)[-1] == 32  # capped at MAX_H
    with pytest.raises(InputError) as err:
        Config("a b", D=24, H=5)
    assert err.value.key == "heads_divide" and err.value.fields["nearest"] == 4
    assert Config("a b", D=8, H=8, ff=1).d_ff == 8


@pytest.mark.parametrize(("field", "value"), [("norm", "mid"), ("ff", 0), ("D", 0), ("seed", -1)])
def test_rejects_bad_fields(field, value):
    with pytest.raises(ValueError):
        Config("a b", **{field: value})


@pytest.mark.parametrize("norm", ["post", "pre", "none"])
def test_formulas_are_the_chapter_block_of_this_norm_with_relu(norm):
    text = " ".join(run(Config("a b c", norm, D=16, H=2)).formulas)
    assert "ReLU" in text and "GELU" not in text
    assert ("\\mathrm{LN}" in text) == (norm != "none")
    assert ("\\mathcal{A}^M(\\mathrm{LN}(X))" in text) == (norm == "pre")
    assert ("\\mathrm{LN}(X + \\mathcal{A}^M(X))" in text) == (norm == "post")
    assert block_anatomy.STEPS[norm][-1][0] == "resid_post"
