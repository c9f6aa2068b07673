"""Positional encodings (S16): the sinusoidal table, learned tables, add vs concat widths."""

import math

import torch

from attnviz.positional import PositionalEncoding, sinusoidal


def test_sinusoidal_table_entries():
    P = sinusoidal(10, 6)
    for i in range(10):
        for k in range(3):
            angle = i / 10000 ** (2 * k / 6)
            assert abs(P[i, 2 * k] - math.sin(angle)) < 1e-12
            assert abs(P[i, 2 * k + 1] - math.cos(angle)) < 1e-12


def test_odd_width_and_first_position():
    P = sinusoidal(4, 5)
    assert P.shape == (4, 5)
    torch.testing.assert_close(P[0], torch.tensor([0.0, 1, 0, 1, 0], dtype=torch.float64))


def test_add_keeps_width_concat_widens_explicitly():
    x = torch.zeros(3, 8)
    add = PositionalEncoding(8, "sinusoidal", "add")
    cat = PositionalEncoding(8, "sinusoidal", "concat", d_pos=4)
    assert add.out_dim == 8 and add(x).shape == (3, 8)
    assert cat.out_dim == 12 and cat(x).shape == (3, 12)
    torch.testing.assert_close(cat(x)[:, 8:], sinusoidal(3, 4).float())
    assert PositionalEncoding(8, "none", "concat").out_dim == 8


def test_learned_is_seeded_and_trainable():
    a, b = PositionalEncoding(8, "learned", seed=1), PositionalEncoding(8, "learned", seed=1)
    assert torch.equal(a.table(5), b.table(5)) and a.W_pos.requires_grad
    assert not torch.equal(a.table(5), PositionalEncoding(8, "learned", seed=2).table(5))
