"""Xiong et al.'s (a), (b) on a model of their shape: the gradients against a plain backward
through PyTorch's whole ``nn.Transformer``, the sentences through the shipped tokenizer, and
the figures the module's docstring quotes."""

import math

import numpy as np
import pytest
import torch
from tokenizers import Tokenizer

from attnviz.lessons import depth_gradients
from attnviz.lessons import depth_paper_shape as shape
from attnviz.positional import sinusoidal
from attnviz.pretrained import model_dir


@pytest.fixture(scope="module")
def measured():
    return shape.run(shape.Config(seeds=3))


@pytest.mark.slow  # the encoder–decoder of the paper's shape, twice over
@pytest.mark.parametrize("norm", ["post", "pre"])
def test_gradients_equal_one_call_of_the_whole_transformer(norm):
    """The same model run as one ``nn.Transformer(src, tgt)`` call (its own encoder, final
    norms and decoder together), the ids from the tokenizer file, positions from the engine's
    table: each layer's W_2 gradient is the module's."""
    got = shape.layer_gradients(norm, 1, D=64)
    tokenizer = Tokenizer.from_file(str(model_dir(shape.MODEL) / "tokenizer.json"))
    tokenizer.no_padding()
    ids = [tokenizer.encode(s).ids for s in shape.SENTENCES]
    assert ids[1][0] == tokenizer.token_to_id("[CLS]") and len(set(map(len, ids))) > 1
    src, src_pad = shape._batch(ids)
    tgt, tgt_pad = shape._batch(ids[1:] + ids[:1])
    torch.manual_seed(1)
    model = torch.nn.Transformer(
        64, 4, 6, 6, 256, dropout=0.0, batch_first=True, norm_first=norm == "pre"
    )
    for name, p in model.named_parameters():
        if p.dim() > 1:
            torch.nn.init.xavier_uniform_(p)
        elif "norm" not in name:
            torch.nn.init.zeros_(p)
    E = torch.randn(tokenizer.get_vocab_size(), 64) / 8
    x = E[src] * 8 + sinusoidal(src.shape[1], 64).float()
    y = E[tgt[:, :-1]] * 8 + sinusoidal(tgt.shape[1] - 1, 64).float()
    causal = torch.nn.Transformer.generate_square_subsequent_mask(tgt.shape[1] - 1)
    out = model(
        x,
        y,
        tgt_mask=causal,
        src_key_padding_mask=src_pad,
        tgt_key_padding_mask=tgt_pad[:, :-1],
        memory_key_padding_mask=src_pad,
    )
    logits = out @ E.T
    keep = ~tgt_pad[:, 1:]
    log_p = torch.log_softmax(logits[keep], -1)
    (-log_p.gather(1, tgt[:, 1:][keep][:, None]).mean()).backward()
    for part, stack in (("encoder", model.encoder), ("decoder", model.decoder)):
        want = [layer.linear2.weight.grad.norm().item() for layer in stack.layers]
        np.testing.assert_allclose(got[part], want, rtol=1e-4)


def test_without_cross_attention_only_the_decoder_learns_and_differs():
    with_cross = shape.layer_gradients("post", 0, D=64)
    alone = shape.layer_gradients("post", 0, D=64, cross=False)
    assert set(alone) == {"decoder"} and set(with_cross) == {"encoder", "decoder"}
    assert not np.allclose(alone["decoder"], with_cross["decoder"])


@pytest.mark.slow  # the figures the docs quote: the page's own size
def test_the_quoted_figures(measured):
    """The module docstring's numbers (D = 256, seeds 0–2), read by the depth page's rule:
    post-LN's decoder rises as Xiong et al.'s (a), and most of the rise goes when its
    cross-attention is fed zeros; pre-LN's layers fall, unlike their (b)."""
    quoted = {
        ("post", "decoder"): (3.56, "rises"),
        ("post", "encoder"): (1.09, "same"),
        ("post", "decoder_alone"): (1.25, "same"),
        ("pre", "decoder"): (0.72, "falls"),
        ("pre", "encoder"): (0.59, "falls"),
        ("pre", "decoder_alone"): (0.63, "falls"),
    }
    for (norm, line), (factor, direction) in quoted.items():
        assert measured.ratios[norm][line] == pytest.approx(factor, abs=0.006), (norm, line)
        assert measured.direction(norm, line) == direction
        assert depth_gradients.direction(measured.ratios[norm][line]) == direction
        assert f"×{factor:.2f}" in shape.__doc__
    share = 1 - math.log(measured.ratios["post"]["decoder_alone"]) / math.log(
        measured.ratios["post"]["decoder"]
    )
    assert measured.cross_share == pytest.approx(share) and round(100 * share) == 83
    assert "83 % of the rise" in shape.__doc__
    # the table's means are the spread's, per layer
    t = measured.table
    one = t[(t.norm == "pre") & (t.line == "encoder") & (t.layer == 3)]["W_2"]
    s = measured.spread
    got = s[(s.norm == "pre") & (s.line == "encoder") & (s.layer == 3)]
    assert got["mean"].item() == pytest.approx(one.mean()) and len(one) == 3


def test_bad_input():
    with pytest.raises(ValueError, match="norm"):
        shape.layer_gradients("none", 0)
    for bad in ({"seeds": 0}, {"seeds": 6}, {"D": 16}):
        with pytest.raises(ValueError):
            shape.Config(**bad)
