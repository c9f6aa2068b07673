"""The charts under a picked cell draw exactly the step-through's numbers."""

import numpy as np
import pytest
import torch

import attnviz
from attnviz.charts import steps as charts
from attnviz.stepthrough import step_through


@pytest.fixture(scope="module")
def traced():
    mha = attnviz.MultiHeadAttention(12, 3, score="scaled_dot", seed=2, device="cpu")
    x = torch.randn(6, 12, generator=torch.Generator().manual_seed(3))
    mask = attnviz.causal_mask(6)
    with torch.no_grad():
        _, trace = mha(x, mask=mask)
    return mha, x, mask, trace


def test_step_charts_draw_the_steps_numbers(traced):
    mha, x, mask, trace = traced
    st = step_through(trace, mha, h=1, i=3, j=2, x=x, mask=mask)
    terms = charts.terms_chart(st).data[0]
    np.testing.assert_allclose(terms.y, st.terms, rtol=1e-6)
    assert terms.x.tolist() == [1, 2, 3, 4]  # dimensions counted from 1
    row = charts.row_chart(st, list("abcdef"))
    np.testing.assert_allclose(row.data[0].y, st.s_row, rtol=1e-6)
    np.testing.assert_allclose(row.data[1].y, st.a_row, rtol=1e-6)
    colours = row.data[1].marker.color
    assert colours[2] == charts.HIGHLIGHT and colours[4] == colours[5] == charts.MUTED  # masked
    values = charts.values_chart(st)
    np.testing.assert_allclose(values.data[0].y, st.a_ij * st.v_j, rtol=1e-5)
    np.testing.assert_allclose(values.data[2].y, st.head_i, rtol=1e-5)
