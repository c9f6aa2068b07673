"""from_torch: attnviz modules built from PyTorch's own modules give PyTorch's outputs."""

import pytest
import torch
from torch import nn

import attnviz

TOL = {torch.float32: 1e-5, torch.float64: 1e-10}


def trained(attn: nn.MultiheadAttention, seed: int = 3) -> None:
    """PyTorch starts both attention biases at 0; a trained layer's are not, so give them
    values: a bias copied to the wrong projection, or not at all, then shows."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for b in (attn.in_proj_bias, attn.out_proj.bias):
            if b is not None:
                b.copy_(torch.randn(b.shape, generator=g, dtype=b.dtype) * 0.5)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("bias", [True, False])
def test_multihead_attention_matches_torch(dtype, bias):
    torch.manual_seed(0)
    m = nn.MultiheadAttention(32, 4, bias=bias, batch_first=True, dtype=dtype).eval()
    trained(m)
    x = torch.randn(3, 7, 32, dtype=dtype)
    ref_out, ref_w = m(x, x, x, need_weights=True, average_attn_weights=False)
    out, trace = attnviz.from_torch(m)(x)
    torch.testing.assert_close(out, ref_out, atol=TOL[dtype], rtol=0)
    torch.testing.assert_close(trace.weights, ref_w, atol=TOL[dtype], rtol=0)
    assert trace.weights.shape == (3, 4, 7, 7)


def test_multihead_attention_cross_and_mask_match_torch():
    torch.manual_seed(1)
    m = nn.MultiheadAttention(24, 3, batch_first=True).eval()
    trained(m)
    q, kv = torch.randn(2, 5, 24), torch.randn(2, 9, 24)
    mask = torch.rand(5, 9) > 0.3
    mask[:, 0] = True  # every query may attend somewhere
    ref_out, ref_w = m(
        q,
        kv,
        kv,
        attn_mask=~mask,  # PyTorch's boolean mask: True = may NOT attend
        need_weights=True,
        average_attn_weights=False,
    )
    out, trace = attnviz.from_torch(m)(q, kv, kv, mask=mask)
    torch.testing.assert_close(out, ref_out, atol=1e-5, rtol=0)
    torch.testing.assert_close(trace.weights, ref_w, atol=1e-5, rtol=0)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("activation", ["relu", "gelu"])
def test_encoder_layer_matches_torch(dtype, norm_first, activation):
    torch.manual_seed(2)
    layer = nn.TransformerEncoderLayer(
        32,
        4,
        64,
        dropout=0.0,
        activation=activation,
        batch_first=True,
        norm_first=norm_first,
        dtype=dtype,
    ).eval()
    with torch.no_grad():  # non-trivial γ, β so a swapped or missing LN would show
        for ln in (layer.norm1, layer.norm2):
            ln.weight.uniform_(0.5, 1.5)
            ln.bias.uniform_(-0.5, 0.5)
    trained(layer.self_attn)
    x = torch.randn(2, 6, 32, dtype=dtype)
    block = attnviz.from_torch(layer)
    assert block.norm == ("pre" if norm_first else "post")
    out, trace = block(x)
    torch.testing.assert_close(out, layer(x), atol=TOL[dtype], rtol=0)
    _, ref_w = layer.self_attn(
        *(3 * [layer.norm1(x) if norm_first else x]), need_weights=True, average_attn_weights=False
    )
    torch.testing.assert_close(trace.attn.weights, ref_w, atol=TOL[dtype], rtol=0)


def test_unsupported_module_is_a_clear_error():
    with pytest.raises(ValueError, match="MultiheadAttention"):
        attnviz.from_torch(nn.Linear(3, 3))
