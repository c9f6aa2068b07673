"""Issue 45, item 5 (S10 with S12): the chapter projects twice, Q = XW^Q, then QW_h^Q; the app
draws one W_h^Q per head. The product W^Q W_h^Q is that one (D × D′) matrix: loaded into the
app's head it gives the chapter's two-stage heads, and the page shows the equality once."""

import torch

from attnviz import formulas
from attnviz.attention import MultiHeadAttention
from attnviz.lessons import multihead


def test_one_matrix_per_head_is_the_chapters_two_projections():
    D, H, N = 12, 3, 7
    g = torch.Generator().manual_seed(4)
    X = torch.randn(N, D, generator=g, dtype=torch.float64)
    W = {n: torch.randn(D, D, generator=g, dtype=torch.float64) for n in "QKV"}  # W^Q, W^K, W^V
    W_h = {n: torch.randn(H, D, D // H, generator=g, dtype=torch.float64) for n in "QKV"}
    # the chapter: Q = XW^Q, K = XW^K, V = XW^V, then head_h = A_{D'}(QW_h^Q, KW_h^K, VW_h^V)
    stage = {n: torch.einsum("nd,hde->hne", X @ W[n], W_h[n]) for n in "QKV"}  # (H, N, D')
    weights = torch.softmax(stage["Q"] @ stage["K"].transpose(1, 2) / (D // H) ** 0.5, -1)
    heads = weights @ stage["V"]  # (H, N, D')
    mha = MultiHeadAttention(D, H, bias=False, dtype=torch.float64, device="cpu")
    with torch.no_grad():
        for n, view in (("Q", mha.W_Q), ("K", mha.W_K), ("V", mha.W_V)):
            view.copy_(torch.einsum("de,hef->hdf", W[n], W_h[n]))  # (H, D, D'): W^Q W_h^Q
        _, trace = mha(X)
    torch.testing.assert_close(trace.q[0], stage["Q"])
    torch.testing.assert_close(trace.head_out[0], heads)


def test_the_page_shows_the_composition_once_with_its_shapes():
    r = multihead.run(multihead.Config(text="the cat sat on the mat"))
    composed = [f for f in r.formulas if "W^Q W_h^Q" in f]
    assert composed == [formulas.composed_projection()]
    assert r"X\, (W^Q W_h^Q)" in composed[0] and r"\mathbb{R}^{D \times D'}" in composed[0]
    assert r"\mathbb{R}^{D \times D}" in composed[0]  # W^Q itself: D × D
