"""The real model's ‖a_ij f_h(x_j)‖ (``Encoding.norms``) against transformers' own BERT on
the same files: its value projections read by a forward hook, its weights by
``output_attentions``, its output projection's columns of each head."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from tests.test_pretrained import TEXTS, model, reference  # noqa: F401 (fixtures)


def reference_norms(reference, text: str) -> tuple[list[str], np.ndarray]:  # noqa: F811
    """(tokens, (L, H, N, N) a_ij ‖v_j W_h^O‖) computed from BERT's own modules."""
    tok, bert = reference
    values = []
    hooks = [
        layer.attention.self.value.register_forward_hook(lambda m, i, o: values.append(o[0]))
        for layer in bert.encoder.layer
    ]
    try:
        batch = tok(text, return_tensors="pt")
        with torch.no_grad():
            out = bert(**batch, output_attentions=True)
    finally:
        for hook in hooks:
            hook.remove()
    H = bert.config.num_attention_heads
    norms = []
    with torch.no_grad():
        for layer, v, a in zip(bert.encoder.layer, values, out.attentions, strict=True):
            D = v.shape[-1]
            d = D // H
            W_o = layer.attention.output.dense.weight  # (D, D): y = x W_oᵀ + b_o
            f = torch.stack(
                [v[:, h * d : (h + 1) * d] @ W_o[:, h * d : (h + 1) * d].T for h in range(H)]
            )
            norms.append(a[0] * f.norm(dim=-1)[:, None, :])  # (H, N, N)
    tokens = tok.convert_ids_to_tokens(batch["input_ids"][0])
    return tokens, torch.stack(norms).numpy()


@pytest.mark.parametrize("name", ["punctuation", "japanese", "one_word"])
def test_norms_match_reference_bert(model, reference, name):  # noqa: F811
    r = model.encode(TEXTS[name])
    tokens, norms = reference_norms(reference, TEXTS[name])
    assert r.tokens == tokens
    assert r.norms.shape == r.attentions.shape and r.norms.dtype == np.float32
    np.testing.assert_allclose(r.norms, norms, atol=1e-4, rtol=0)


def test_weight_on_cls_sends_little(model):  # noqa: F811
    """Kobayashi et al.'s finding on this model: in layers 2–5 the heads put most of their
    weight on [CLS], yet [CLS] sends a small share of what the rows receive."""
    r = model.encode("The cat sat on the mat.")
    weight = r.attentions[..., 0].mean((1, 2))  # (L,)
    share = (r.norms[..., 0] / r.norms.sum(-1)).mean((1, 2))
    assert (weight[1:5] > 0.5).all() and (share[1:5] < 0.25).all()
