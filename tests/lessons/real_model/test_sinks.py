"""Where the real model's heads park weight: shares that add up to one, against the model's
own maps, and what the weight moves against ‖v_j W_h^O‖ computed by hand."""

import numpy as np
import pytest

from attnviz import formulas, sinks
from attnviz.lessons import real_model as rm
from attnviz.lessons.real_model import forward
from attnviz.lessons.real_model import sinks as real_sinks

from ..real import TEXT


@pytest.mark.parametrize("hide", [False, True])
def test_sink_shares_and_the_rest_add_up_to_one(encoded, hide):
    view = rm.run(rm.Config(text=TEXT, hide_special=hide)).sinks
    assert view.shares.shape == (4, 6, 12)
    np.testing.assert_allclose(view.shares.sum(0), 1.0, atol=1e-5)
    np.testing.assert_allclose(view.moved.sum(0), 1.0, atol=1e-6)
    if hide:
        np.testing.assert_allclose(view.shares[:2], 0.0)  # [CLS] and [SEP] are gone
        assert view.formulas[0] == formulas.HIDE_RENORMALISE
    cls = encoded.attentions[..., 0].mean(-1)  # (L, H): mean weight on position 0, [CLS]
    np.testing.assert_allclose(view.raw[0], cls, atol=1e-6)


def test_the_sink_is_cls_and_carries_little_of_what_it_takes(encoded):
    """The page's sentence about why heads park weight: true for this model and sentence."""
    view = rm.run(rm.Config(text=TEXT)).sinks
    assert view.sink == "cls" and 0.3 < view.weight < 0.7 and view.idle
    model = forward.model()
    layer, head = 2, 4
    x = forward.encode(TEXT)[2][layer].astype(np.float64)  # what layer 3's attention read
    mha = model.stack.blocks[layer].attn
    W_V, b_V, W_O = (p[head].double().cpu().numpy() for p in (mha.W_V, mha.b_V, mha.W_O))
    v = x @ W_V + b_V  # (N, D')
    norms = np.linalg.norm(v @ W_O, axis=1)  # ‖v_j W_h^O‖
    a = encoded.attentions[layer, head].astype(np.float64)
    want = ((a[:, 0] * norms[0]) / (a * norms).sum(1)).mean()
    assert view.moved[0, layer, head] == pytest.approx(want, abs=1e-5)
    table = real_sinks.sink_table(view, list(sinks.CATEGORIES))
    assert len(table) == 4 * 6 * 12 and table["layer"].min() == 1 and table["head"].max() == 12
