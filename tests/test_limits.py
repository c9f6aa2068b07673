"""Bad input raises ValueError naming the parameter and its allowed range; nothing is clamped.
The engine checks structure (shapes, divisibility, dtypes); the shared server's caps are the
lessons' configs' (tests/test_notebook_scale.py runs the engine beyond them)."""

import math

import pytest
import torch

import attnviz
from attnviz import limits
from attnviz.lessons import (
    block_anatomy,
    depth_gradients,
    depth_model,
    multihead,
    real_model,
    scoring,
)
from attnviz.lessons.training_race import config as race_config
from attnviz.text import tokenize


@pytest.mark.parametrize(
    "make,match",
    [
        (lambda: attnviz.MultiHeadAttention(10, 3), r"D=10 is not divisible by H=3.*d_head"),
        (lambda: attnviz.MultiHeadAttention(0, 1), r"D must be an integer ≥ 1, got 0"),
        (lambda: attnviz.MultiHeadAttention(64, 2.5), r"H must be an integer"),
        (lambda: attnviz.MultiHeadAttention(16, 4, score="cosine"), r"score must be one of .*dot"),
        (lambda: attnviz.TransformerBlock(16, 4, norm="middle"), r"norm must be one of post, pre"),
        (lambda: attnviz.TransformerBlock(16, 4, 0), r"d_ff must be an integer ≥ 1"),
        (lambda: attnviz.TransformerBlock(16, 4, activation="tanh"), r"activation must be one of"),
        (lambda: attnviz.TransformerStack(0, 16, 4), r"layers must be an integer ≥ 1"),
        (lambda: attnviz.PositionalEncoding(16, "rotary"), r"positional encoding must be one of"),
        (lambda: attnviz.PositionalEncoding(16, "learned", "stack"), r"mode must be one of add"),
        (lambda: attnviz.sinusoidal(0, 8), r"N must be an integer ≥ 1"),
        (lambda: attnviz.make_score("mlp", 8, hidden=0), r"mlp_hidden must be in"),
    ],
)
def test_bad_configuration(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_d_head_makes_any_H_possible():
    mha = attnviz.MultiHeadAttention(10, 3, d_head=4, device="cpu")
    assert mha(torch.randn(2, 10))[0].shape == (2, 10)


mha = attnviz.MultiHeadAttention(8, 2, device="cpu")


@pytest.mark.parametrize(
    "x,match",
    [
        (torch.zeros(0, 8), r"at least 1 token, got N=0"),
        (torch.zeros(4, 7), r"last dimension must equal D=8, got 7"),
        (torch.zeros(8), r"shape \(N, D\) or \(B, N, D\)"),
        (torch.tensor([[math.nan] * 8]), r"finite"),
        (torch.tensor([[math.inf] * 8]), r"finite"),
    ],
)
def test_bad_tokens(x, match):
    with pytest.raises(ValueError, match=match):
        mha(x)


def test_bad_mask_and_mismatched_key():
    with pytest.raises(ValueError, match="boolean"):
        mha(torch.zeros(3, 8), mask=torch.ones(3, 3))
    with pytest.raises(ValueError, match="does not broadcast"):
        mha(torch.zeros(3, 8), mask=torch.ones(4, 4, dtype=torch.bool))
    with pytest.raises(ValueError, match="shape mismatch"):
        mha(torch.zeros(1, 3, 8), torch.zeros(1, 4, 8), torch.zeros(1, 5, 8))


def test_text_limits():
    with pytest.raises(ValueError, match="at most 2000 characters"):
        tokenize("a" * (limits.MAX_TEXT_CHARS + 1))
    with pytest.raises(ValueError, match="at least 1 token"):
        tokenize("   ")
    with pytest.raises(ValueError, match="at most 512 tokens"):
        tokenize("a " * 600)
    assert tokenize("The cat, the CAT!") == ["the", "cat", ",", "the", "cat", "!"]


def test_repeated_word_same_vector():
    X = attnviz.text.embed(["cat", "dog", "cat"], 16)
    assert torch.equal(X[0], X[2]) and not torch.equal(X[0], X[1])


@pytest.mark.parametrize(
    "make,match",
    [
        (lambda: multihead.Config("a b", D=2048), r"D must be in \[1, 1024\], got 2048"),
        (lambda: multihead.Config("a b", D=64, H=64), r"H must be in \[1, 32\]"),
        (lambda: multihead.Config("a b", H=32, d_head=129), r"d_head must be in \[1, 128\]"),
        (lambda: multihead.run(multihead.Config("a " * 600)), r"at most 512 tokens"),
        (lambda: block_anatomy.Config("a b", D=2048), r"D must be in \[1, 1024\]"),
        (lambda: block_anatomy.Config("a b", ff=5000), r"ff must be in"),
        (lambda: depth_model.layer_gradients(25, 16, 0), r"layers must be in \[1, 24\]"),
        (lambda: depth_gradients.TrendConfig(D=2048), r"D must be in \[8, 1024\]"),
        (lambda: scoring.Config(source="random", N=513), r"N must be in \[1, 512\]"),
        (lambda: scoring.Config(source="random", D=2048), r"D must be in \[1, 1024\]"),
        (lambda: race_config.Config(D=2048), r"D must be in \[1, 1024\]"),
        (lambda: race_config.Config(H=64, D=64), r"H must be in \[1, 32\]"),
        (lambda: race_config.Config(batch=10_000), r"batch must be in \[1, 256\]"),
        (lambda: real_model.Config("a b", model="/etc"), r"model must be one of"),
    ],
)
def test_the_lessons_enforce_the_servers_caps(make, match):
    """The caps left the engine for the lessons' configs, where the server's inputs arrive."""
    with pytest.raises(ValueError, match=match):
        make()


def test_the_widest_heads_allowed_fill_but_never_pass_the_projections_cap():
    from attnviz.limits import MAX_D_HEAD, MAX_HEADS_WIDTH, max_d_head

    assert max_d_head(1) == MAX_D_HEAD and max_d_head(32) * 32 == MAX_HEADS_WIDTH
    assert all(max_d_head(H) >= 1 and H * max_d_head(H) <= MAX_HEADS_WIDTH for H in range(1, 33))
    multihead.Config("a b", D=1024, H=32, d_head=max_d_head(32))  # the widest is valid
