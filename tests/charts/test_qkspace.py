"""A head's query–key picture: two marker traces at any N, with the engine's points and
the top keys' lines."""

import numpy as np
import torch

import attnviz
from attnviz.charts.qkspace import qk_chart
from attnviz.qkspace import qk_space


def test_query_key_picture_is_two_marker_traces_at_any_N():
    mha = attnviz.MultiHeadAttention(64, 2, seed=0, device="cpu")
    with torch.no_grad():
        _, trace = mha(torch.randn(512, 64))
    space = qk_space(trace, mha, h=1, query=7, k=4)
    fig = qk_chart(space, [f"t{n}" for n in range(512)])
    markers = [t for t in fig.data if t.mode == "markers" and t.x is not None and len(t.x) == 512]
    assert len(markers) == 2 and [t.marker.symbol for t in markers] == ["circle", "diamond"]
    np.testing.assert_allclose(markers[0].x, space.queries[:, 0], rtol=1e-6)
    np.testing.assert_allclose(markers[1].y, space.keys[:, 1], rtol=1e-6)
    lines = [t for t in fig.data if t.mode == "lines"]
    assert len(lines) == 4
    widths = [t.line.width for t in lines]
    assert widths == sorted(widths, reverse=True) and widths[0] == 10  # the largest weight
    np.testing.assert_allclose(
        lines[0].x, [space.queries[7, 0], space.keys[space.top_keys[0], 0]], rtol=1e-6
    )
    assert markers[0].text[7] == "8:t7"  # hover: the token, counted from 1
