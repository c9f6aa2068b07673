"""What each source sends (Kobayashi et al. 2020): the trace's ‖a_ij f_h(x_j)‖ against
PyTorch's own ``nn.MultiheadAttention`` weights, the sub-layer's output as the sum of what
the sources send, and 0 wherever a mask leaves the weight at 0."""

import pytest
import torch
from torch import nn

import attnviz
from attnviz.masks import causal_mask
from tests.test_interop import trained


def torch_norms(m: nn.MultiheadAttention, x: torch.Tensor, mask: torch.Tensor | None):
    """‖a_ij f_h(x_j)‖ from PyTorch's own parameters and weights: in_proj's value rows give
    v_j, out_proj's columns of head h give W_h^O, ``m``'s weights give a_ij."""
    E, H = m.embed_dim, m.num_heads
    d = E // H
    _, a = m(
        x,
        x,
        x,
        attn_mask=None if mask is None else ~mask,  # PyTorch: True = may NOT attend
        need_weights=True,
        average_attn_weights=False,
    )  # (B, H, N, N)
    W_v = m.in_proj_weight[2 * E :]  # (E, E): v = x W_vᵀ + b_v
    b_v = m.in_proj_bias[2 * E :] if m.in_proj_bias is not None else torch.zeros(E)
    v = (x @ W_v.T + b_v).view(*x.shape[:2], H, d)  # (B, N, H, d)
    W_o = m.out_proj.weight  # (E, E): out = concat W_oᵀ + b_o; head h meets columns h·d …
    f = torch.stack(
        [v[:, :, h] @ W_o[:, h * d : (h + 1) * d].T for h in range(H)], 1
    )  # (B, H, N, E)
    return a * f.norm(dim=-1)[:, :, None, :]  # (B, H, N_q, N_k)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("causal", [False, True])
def test_norms_match_torch_multihead_attention(dtype, bias, causal):
    torch.manual_seed(0)
    m = nn.MultiheadAttention(32, 4, bias=bias, batch_first=True, dtype=dtype).eval()
    trained(m)
    x = torch.randn(3, 7, 32, dtype=dtype)
    mask = causal_mask(7) if causal else None
    with torch.no_grad():
        ref = torch_norms(m, x, mask)
    _, trace = attnviz.from_torch(m)(x, mask=mask)
    assert trace.norms.shape == (3, 4, 7, 7)
    tol = 1e-5 if dtype == torch.float32 else 1e-10
    torch.testing.assert_close(trace.norms, ref, atol=tol, rtol=0)


@pytest.mark.parametrize("norm", ["post", "pre", "none"])
def test_sources_sent_sum_to_the_sublayer_output(norm):
    """Σ_h Σ_j a_ij f_h(x_j) + b^O = MHA(x)_i, for every query i (the law behind the norms)."""
    torch.manual_seed(1)
    block = attnviz.TransformerBlock(24, 3, 48, norm=norm, seed=2, dtype=torch.float64)
    with torch.no_grad():
        block.attn.b_QKV.normal_()
        block.attn.b_O.normal_()
    x = torch.randn(2, 6, 24, dtype=torch.float64)
    _, t = block(x)
    a = t.attn
    sent = torch.einsum("bhij,bhjd->bid", a.weights, a.sent)  # (B, N, D)
    torch.testing.assert_close(sent + block.attn.b_O, t.attn_out, atol=1e-10, rtol=0)
    # and the norms are the lengths of those vectors, one source and head at a time
    vectors = a.weights[..., None] * a.sent[:, :, None]  # (B, H, N_q, N_k, D)
    torch.testing.assert_close(a.norms, vectors.norm(dim=-1), atol=1e-10, rtol=0)


def test_masked_weights_send_nothing():
    """Causal and padding masks: the norm is 0 exactly where the weight is; a row with no
    allowed key sends nothing at all."""
    mha = attnviz.MultiHeadAttention(16, 4, seed=3)
    x = torch.randn(2, 5, 16)
    pad = torch.tensor([[True] * 5, [True, True, True, False, False]])  # (B, N_k)
    mask = causal_mask(5)[None] & pad[:, None, :]  # (B, N_q, N_k)
    mask[1, 0] = False  # a query that may read nothing
    _, t = mha(x, mask=mask)
    zero = t.weights == 0
    assert zero.any() and torch.equal(t.norms == 0, zero)
    assert t.norms[1, :, 0].abs().sum() == 0
    assert (t.norms[~zero] > 0).all()


def test_norms_need_no_grad_and_leave_autograd_alone():
    mha = attnviz.MultiHeadAttention(8, 2, seed=0)
    x = torch.randn(4, 8, requires_grad=True)
    out, t = mha(x)
    assert not t.norms.requires_grad
    out.sum().backward()  # reading the norms first changes nothing for the gradient
    assert x.grad is not None
