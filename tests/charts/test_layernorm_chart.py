"""The real model's γ, β chart: each panel spans the components d = 1 … D exactly, the dotted
values at initialisation (1 and 0) run over the data only, and the axis title stands below its
tick labels (issue 52: the title sat on the ticks, the line ran past the data)."""

import numpy as np

from attnviz.charts.layernorm import gamma_beta


def test_gamma_beta_spans_the_components_and_its_title_clears_the_ticks():
    D = 384
    rng = np.random.default_rng(0)
    fig = gamma_beta(1 + 0.1 * rng.standard_normal(D), 0.1 * rng.standard_normal(D))
    for axis in (fig.layout.xaxis, fig.layout.xaxis2):
        assert tuple(axis.range) == (1, D) and axis.automargin
    assert fig.layout.xaxis2.title.text and fig.layout.xaxis2.title.standoff >= 8
    starts = sorted((s.y0, s.x0, s.x1) for s in fig.layout.shapes)
    assert starts == [(0.0, 1, D), (1.0, 1, D)]  # β's 0 and γ's 1, over d = 1 … D
    for trace in fig.data:
        assert (trace.x.min(), trace.x.max()) == (1, D)
