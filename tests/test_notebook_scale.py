"""The engine checks structure, not size: in a notebook it runs what the shared server's
caps (attnviz/limits.py, checked by the lessons and the app) would refuse."""

import pytest
import torch
from torch import nn

import attnviz
from attnviz import limits


def test_a_deep_stack_reads_gpt2s_context():
    L, N = 36, 1024
    assert L > limits.MAX_LAYERS and N > limits.MAX_N
    stack = attnviz.TransformerStack(L, 16, 2, 32, norm="pre", final_norm=True, device="cpu")
    x = torch.randn(1, N, 16)
    out, traces = stack(x)
    assert out.shape == (1, N, 16) and len(traces) == L
    assert traces[-1].attn.weights.shape == (1, 2, N, N)
    torch.testing.assert_close(traces[-1].attn.weights.sum(-1), torch.ones(1, 2, N))


def test_a_wide_layer_without_biases_matches_torch():
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(1280, 20, bias=False, batch_first=True).eval()
    assert layer.linear1.bias is None and layer.norm1.bias is None
    block = attnviz.from_torch(layer)
    assert block.attn.D == 1280 > limits.MAX_D and block.attn.b_QKV is None
    x = torch.randn(2, 7, 1280)
    out, trace = block(x)
    with torch.no_grad():
        torch.testing.assert_close(out, layer(x), atol=1e-4, rtol=0)
    assert trace.attn.weights.shape == (2, 20, 7, 7)


def test_layers_without_biases_in_both_placements_match_torch():
    torch.manual_seed(1)
    for norm_first in (False, True):
        layer = nn.TransformerEncoderLayer(
            32, 4, 64, dropout=0.0, bias=False, batch_first=True, norm_first=norm_first
        ).eval()
        x = torch.randn(2, 5, 32)
        with torch.no_grad():
            torch.testing.assert_close(attnviz.from_torch(layer)(x)[0], layer(x), atol=1e-5, rtol=0)
    mha = nn.MultiheadAttention(32, 4, bias=False, batch_first=True).eval()
    x = torch.randn(2, 5, 32)
    with torch.no_grad():
        torch.testing.assert_close(
            attnviz.from_torch(mha)(x)[0], mha(x, x, x)[0], atol=1e-5, rtol=0
        )


@pytest.mark.parametrize(
    "module,match",
    [
        (nn.MultiheadAttention(16, 2, kdim=8, vdim=8), r"kdim or vdim"),
        (nn.MultiheadAttention(16, 2, add_bias_kv=True), r"bias_k/bias_v"),
        (nn.MultiheadAttention(16, 2, add_zero_attn=True), r"add_zero_attn=True"),
        (nn.TransformerEncoderLayer(16, 2, activation=torch.tanh), r"activation .*tanh"),
        (nn.TransformerDecoderLayer(16, 2), r"TransformerDecoderLayer"),
    ],
)
def test_unsupported_layers_are_named(module, match):
    with pytest.raises(ValueError, match=match):
        attnviz.from_torch(module)


def test_non_finite_inputs_are_checked_where_free_or_on_request():
    mha = attnviz.MultiHeadAttention(8, 2, device="cpu")
    bad = torch.full((3, 8), float("nan"))
    with pytest.raises(ValueError, match="finite"):
        mha(bad)  # on the CPU the check costs no synchronisation
    unchecked = attnviz.MultiHeadAttention(8, 2, check_finite=False, device="cpu")
    assert torch.isnan(unchecked(bad)[0]).all()
    with pytest.raises(ValueError, match="float32 or float64"):
        limits.check_tokens("x", torch.zeros(3, 8, dtype=torch.long), 8)
