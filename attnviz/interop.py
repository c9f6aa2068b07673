"""Bring a user's own PyTorch layer into attnviz: ``from_torch(module)``.

Copies the weights of ``nn.MultiheadAttention`` or ``nn.TransformerEncoderLayer``
into the equivalent attnviz module, whose forward returns the same output plus
a per-head trace. PyTorch stores a linear map as ``y = x Wᵀ + b`` with the
heads stacked along the output rows; attnviz stores W_h^Q ∈ ℝ^{D×D'} per head,
as views of one (D, 3, H, D') tensor ``W_QKV`` that holds W^Q, W^K and W^V.

Example (notebook)::

    layer = nn.TransformerEncoderLayer(64, 4, batch_first=True, norm_first=True).eval()
    block = attnviz.from_torch(layer)
    out, trace = block(x)                 # out matches layer(x)
    attnviz.charts.head_grid(trace.attn.weights[0].numpy(), tokens)
"""

from __future__ import annotations

import torch
from torch import nn

from .attention import MultiHeadAttention
from .block import TransformerBlock


def _copy(ours: torch.Tensor, theirs: torch.Tensor | None, default: float = 0.0) -> None:
    """Copy a parameter; an absent one (``bias=False``, no affine LN) is its neutral value."""
    if theirs is None:
        ours.fill_(default)
    else:
        ours.copy_(theirs.detach())


def _mha_from_torch(m: nn.MultiheadAttention) -> MultiHeadAttention:
    unsupported = [
        what
        for what, present in (
            ("kdim or vdim other than embed_dim", not m._qkv_same_embed_dim),
            ("bias_k/bias_v (add_bias_kv=True)", m.bias_k is not None),
            ("add_zero_attn=True", m.add_zero_attn),
        )
        if present
    ]
    if unsupported:
        raise ValueError(
            f"from_torch does not support nn.MultiheadAttention with {'; '.join(unsupported)}"
        )
    D, H = m.embed_dim, m.num_heads
    d = D // H
    W = m.in_proj_weight.detach()
    ours = MultiHeadAttention(D, H, bias=m.in_proj_bias is not None, dtype=W.dtype, device=W.device)
    with torch.no_grad():
        for name, rows in zip(("W_Q", "W_K", "W_V"), W.chunk(3, dim=0), strict=True):
            # rows: (H*D', D) with y = x rowsᵀ; head h owns rows h*D' … (h+1)*D'
            getattr(ours, name).copy_(rows.T.reshape(D, H, d).permute(1, 0, 2))  # (H, D, D')
        ours.W_O.copy_(m.out_proj.weight.detach().T.reshape(H, d, D))  # (H, D', D)
        if m.in_proj_bias is not None:
            for name, b in zip(
                ("b_Q", "b_K", "b_V"), m.in_proj_bias.detach().chunk(3), strict=True
            ):
                getattr(ours, name).copy_(b.view(H, d))
            _copy(ours.b_O, m.out_proj.bias)
    return ours


def _layer_from_torch(m: nn.TransformerEncoderLayer) -> TransformerBlock:
    activation = {1: "relu", 2: "gelu"}.get(m.activation_relu_or_gelu)
    if activation is None:
        raise ValueError(
            f"from_torch does not support the activation {m.activation!r} of this "
            "TransformerEncoderLayer: only relu and gelu (F.relu, F.gelu, nn.ReLU, nn.GELU)"
        )
    attn = m.self_attn
    W = attn.in_proj_weight.detach()
    ours = TransformerBlock(
        attn.embed_dim,
        attn.num_heads,
        m.linear1.out_features,
        norm="pre" if m.norm_first else "post",
        activation=activation,
        eps=m.norm1.eps,
        bias=attn.in_proj_bias is not None,
        dtype=W.dtype,
        device=W.device,
    )
    ours.attn = _mha_from_torch(attn)
    with torch.no_grad():
        ours.ffn.W_1.copy_(m.linear1.weight.detach().T)
        _copy(ours.ffn.b_1, m.linear1.bias)
        ours.ffn.W_2.copy_(m.linear2.weight.detach().T)
        _copy(ours.ffn.b_2, m.linear2.bias)
        for ln, tln in ((ours.ln_1, m.norm1), (ours.ln_2, m.norm2)):
            _copy(ln.gamma, tln.weight, 1.0)
            _copy(ln.beta, tln.bias)
    return ours


def from_torch(module: nn.Module) -> MultiHeadAttention | TransformerBlock:
    """Return the attnviz equivalent of ``module`` with the same weights.

    Supported: ``nn.MultiheadAttention`` and ``nn.TransformerEncoderLayer`` (relu or
    gelu, ``norm_first`` False → ``norm="post"``, True → ``norm="pre"``, with or without
    biases: ``bias=False`` copies as zero biases). Anything else raises ValueError naming
    it. attnviz modules take batch-first input; dropout is not modelled (compare in
    ``eval()``).
    """
    if isinstance(module, nn.MultiheadAttention):
        return _mha_from_torch(module)
    if isinstance(module, nn.TransformerEncoderLayer):
        return _layer_from_torch(module)
    raise ValueError(
        "from_torch supports nn.MultiheadAttention and nn.TransformerEncoderLayer; "
        f"got {type(module).__name__}"
    )
