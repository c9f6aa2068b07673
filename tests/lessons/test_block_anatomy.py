"""Block anatomy: every step against the block written out by hand; LN makes each token
mean 0 / variance 1; the post-LN output has length ≈ √D."""

import numpy as np
import pytest
import torch

from attnviz.block import TransformerBlock
from attnviz.errors import InputError
from attnviz.i18n import t
from attnviz.lessons.block_anatomy import Config, heads, run
from attnviz.norms import NORMS
from attnviz.text import embed, tokenize

from ..oracles import ffn, layer_norm, multi_head_attention


@torch.no_grad()
def by_hand(cfg: Config) -> dict[str, torch.Tensor]:
    """Oracle: every step of the stream, label → (N, ·), written out in float64 from the
    formulas of S13 / S14 with the parameters of a block built from the same seed."""
    block = TransformerBlock(cfg.D, cfg.H, cfg.d_ff, norm=cfg.norm, seed=cfg.seed, device="cpu")
    block = block.double()
    X = embed(tokenize(cfg.text), cfg.D).double()
    mha, ln_1, ln_2 = block.attn, block.ln_1, block.ln_2
    if cfg.norm == "post":
        A = multi_head_attention(mha, X)
        Qp = layer_norm(X + A, ln_1)
        F, hidden = ffn(block.ffn, Qp)
        return {
            "X": X,
            "Aᴹ(X)": A,
            "X + Aᴹ(X)": X + A,
            "Q' = LN₁(·)": Qp,
            "ReLU(Q'W₁+b₁)": hidden,
            "FFN(Q')": F,
            "Q'+FFN(Q')": Qp + F,
            "out = LN₂(·)": layer_norm(Qp + F, ln_2),
        }
    if cfg.norm == "pre":
        A = multi_head_attention(mha, layer_norm(X, ln_1))
        F, hidden = ffn(block.ffn, layer_norm(X + A, ln_2))
        return {
            "X": X,
            "LN₁(X)": layer_norm(X, ln_1),
            "Aᴹ(LN₁(X))": A,
            "X' = X + Aᴹ": X + A,
            "LN₂(X')": layer_norm(X + A, ln_2),
            "ReLU(·W₁+b₁)": hidden,
            "FFN(LN₂(X'))": F,
            "out = X' + FFN": X + A + F,
        }
    A = multi_head_attention(mha, X)
    F, hidden = ffn(block.ffn, X + A)
    return {
        "X": X,
        "Aᴹ(X)": A,
        "X' = X + Aᴹ": X + A,
        "ReLU(X'W₁+b₁)": hidden,
        "FFN(X')": F,
        "out = X' + FFN": X + A + F,
    }


@pytest.mark.parametrize("norm", ["post", "pre"])
def test_ln_rows_are_standardised(norm):
    r = run(Config("the cat sat on the mat", norm, D=32, H=4, ff=4))
    np.testing.assert_allclose(r.stats["mean_after"], 0, atol=1e-5)
    np.testing.assert_allclose(r.stats["var_after"], 1, atol=1e-3)
    assert (np.abs(r.stats["mean_before"]) > 1e-3).any()
    assert r.norms.shape == (len(r.steps), 6)
    assert list(r.stats["token"])[:2] == ["1:the", "2:cat"]


@pytest.mark.parametrize("norm", ["post", "pre", "none"])
def test_each_steps_norm_is_the_norm_of_that_step_written_out_by_hand(norm):
    """The residual-norm chart: row s is ‖step s‖₂ per token, the step computed by hand."""
    cfg = Config("the cat sat on the mat", norm, D=32, H=4, ff=2, seed=2)
    r = run(cfg)
    expected = by_hand(cfg)
    assert r.steps == list(expected)
    for label, norms, shape in zip(r.steps, r.norms, r.shapes, strict=True):
        value = expected[label]
        np.testing.assert_allclose(norms, value.norm(dim=-1).numpy(), rtol=1e-5, err_msg=label)
        assert shape == " × ".join(map(str, value.shape)), label


@pytest.mark.parametrize("norm", ["post", "pre", "none"])
def test_each_residual_drawn_adds_a_parts_input_to_its_output(norm):
    """The flow's residual connections (a, b): step b, computed by hand, is step a plus the
    step just before b (the part's output), and a part's input is what it starts from: the
    attention's and the FFN's, one connection each."""
    cfg = Config("the cat sat on the mat", norm, D=32, H=4, ff=2, seed=2)
    r = run(cfg)
    value = list(by_hand(cfg).values())
    assert len(r.residuals) == 2
    for a, b in r.residuals:
        assert a < b - 1, (a, b)
        torch.testing.assert_close(value[b], value[a] + value[b - 1])
    (_, after_attention), (_, after_ffn) = r.residuals
    assert r.steps[after_attention - 1].startswith("Aᴹ")
    assert r.steps[after_ffn - 1].startswith("FFN")


@pytest.mark.parametrize(
    ("norm", "reads"), [("post", "X + Aᴹ(X)"), ("pre", "X")], ids=["post", "pre"]
)
def test_statistics_before_ln_are_those_of_what_ln_1_reads(norm, reads):
    """LN₁ reads X + Aᴹ(X) in post-LN and X in pre-LN; the table's mean and variance before
    LN₁ are that input's per-token mean and (biased) variance over the D components."""
    cfg = Config("the cat sat on the mat", norm, D=32, H=4, ff=2, seed=2)
    r = run(cfg)
    x = by_hand(cfg)[reads]
    np.testing.assert_allclose(r.stats["mean_before"], x.mean(-1).numpy(), atol=1e-6)
    np.testing.assert_allclose(r.stats["var_before"], x.var(-1, unbiased=False).numpy(), rtol=1e-5)
    np.testing.assert_allclose(r.ln_in, x.numpy(), atol=1e-5)
    x_hat = torch.nn.functional.layer_norm(x, (cfg.D,), eps=1e-5)  # before γ, β
    np.testing.assert_allclose(r.ln_hat, x_hat.numpy(), atol=1e-5)


def test_post_ln_output_has_length_sqrt_d_and_none_has_no_ln():
    r = run(Config("a b c d", "post", D=64, H=4, ff=4, seed=1))
    np.testing.assert_allclose(r.norms[-1], 8.0, rtol=1e-3)
    n = run(Config("a b c d", "none", D=64, H=4, ff=4, seed=1))
    assert n.ln_hat is None and n.stats.empty
    assert n.shapes[n.steps.index("ReLU(X'W₁+b₁)")] == "4 × 256"


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("norm", ["post", "pre", "none"])
def test_on_the_pages_sentences_only_post_ln_brings_lengths_back_to_sqrt_d(lang, norm):
    """What the note under the page's lengths chart quotes, at its defaults (D = 64, H = 4,
    ff = 4): post-LN's LN₂ returns every token to length √D = 8 (γ = 1, β = 0); pre-LN and
    no LN carry the sum on unnormalised, and the block lengthens it (measured 7.9 → 8.05–8.45
    in English, 8.1 → 8.25–8.45 in Japanese, seeds 0–4)."""
    for seed in (0, 1, 2):
        r = run(Config(t("block_anatomy.default_text", lang), norm, seed=seed))
        if norm == "post":
            np.testing.assert_allclose(r.norms[-1], 8.0, rtol=1e-3)
        else:
            assert r.norms[-1].mean() > r.norms[0].mean(), seed


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
    assert NORMS[norm].stream[-1][0] == "resid_post"


@pytest.mark.parametrize(
    ("norm", "step", "symbol"),
    [
        ("post", "Aᴹ(X)", "\\mathcal{A}^M(X)"),
        ("pre", "Aᴹ(LN₁(X))", "\\mathcal{A}^M(\\mathrm{LN}(X))"),
        ("none", "Aᴹ(X)", "\\mathcal{A}^M(X)"),
    ],
)
def test_the_flows_steps_and_the_formula_name_the_same_things(norm, step, symbol):
    """Item 1.9: the flow's boxes (the steps) say Aᴹ as the formula does, never MHA; the
    FFN's input is Y, not H (H is the number of heads)."""
    r = run(Config("a b c", norm, D=16, H=2))
    text = " ".join(r.formulas)
    assert step in r.steps and symbol in text
    assert not [s for s in r.steps if "MHA" in s]
    assert "\\mathrm{FFN}(Y)" in text and "FFN}(H)" not in text
