"""The real-model page's maps of contributions ‖a_ij f_h(x_j)‖: cells from the model's own
norms, hiding that leaves rows as they are, rollout over each row's share of what is sent,
and the per-layer shares of weight and contribution side by side."""

import numpy as np
import pytest

from attnviz import formulas, sinks
from attnviz.errors import InputError
from attnviz.formulas import contributions
from attnviz.lessons import real_model as rm
from attnviz.lessons.real_model import forward

from ..real import TEXT


def test_contribution_maps_are_the_models_norms(encoded):
    r = rm.run(rm.Config(text=TEXT, view="head", layer=2, head=4, measure="contributions"))
    np.testing.assert_array_equal(r.shown, encoded.norms[2, 4])
    assert r.zmax == pytest.approx(float(encoded.norms[2, 4].max()))
    assert r.formulas == [formulas.REAL_HEAD, contributions.sent()]
    assert not np.allclose(r.shown.sum(-1), 1.0)  # rows are not normalised
    np.testing.assert_array_equal(r.maps, encoded.norms)


def test_hiding_leaves_contributions_as_they_are(encoded):
    r = rm.run(
        rm.Config(
            text=TEXT, view="head", layer=1, head=0, hide_special=True, measure="contributions"
        )
    )
    keep = sinks.kept_positions(encoded.tokens, ("cls", "sep"))
    np.testing.assert_array_equal(r.shown, encoded.norms[1, 0][np.ix_(keep, keep)])
    assert r.formulas[-1] == contributions.HIDE_KEPT
    w = rm.run(rm.Config(text=TEXT, view="head", layer=1, head=0, hide_special=True))
    np.testing.assert_allclose(w.shown.sum(-1), 1.0, atol=1e-5)  # weights: rescaled
    combined = rm.run(
        rm.Config(text=TEXT, view="head", layer=1, combine="max", measure="contributions")
    )
    np.testing.assert_array_equal(combined.shown, encoded.norms[1].max(0))


def test_rollout_of_contributions_uses_each_rows_share_of_what_is_sent(encoded):
    r = rm.run(rm.Config(text=TEXT, view="rollout", layer=1, measure="contributions"))
    N = len(encoded.tokens)
    R = np.eye(N)
    for layer in range(2):  # by hand: heads summed, each row a share, residual, rows to 1
        C = encoded.norms[layer].astype(np.float64).sum(0)
        C /= C.sum(-1, keepdims=True)
        R = ((C + np.eye(N)) / 2) @ R
    np.testing.assert_allclose(r.shown, R, atol=1e-5)
    np.testing.assert_allclose(r.shown.sum(-1), 1.0, atol=1e-5)
    assert r.formulas == [contributions.sent(), contributions.ROLLOUT_SENT] and r.zmax == 1.0
    weights = rm.run(rm.Config(text=TEXT, view="rollout", layer=1))
    assert not np.allclose(weights.shown, r.shown, atol=1e-2)  # the two rollouts differ
    # a source that takes weight but sends little keeps less of itself through the layers
    assert r.shown[:, 0].mean() < weights.shown[:, 0].mean()


def test_rollout_rows_of_zeros_stay_zero():
    maps = np.zeros((2, 1, 3, 3))
    maps[:, :, 0, 1] = 1.0  # rows 2 and 3 send nothing: only the residual remains
    R = forward.rollout(maps)
    np.testing.assert_allclose(R.sum(-1), 1.0)
    np.testing.assert_allclose(R[0, 1:], np.eye(3)[1:])


def test_per_layer_shares_of_weight_and_contribution(encoded):
    view = rm.run(rm.Config(text=TEXT, measure="contributions")).sinks
    layers = view.layers()
    assert layers.shape == (2, 4, 6)
    np.testing.assert_allclose(layers[0, 0], encoded.attentions[..., 0].mean((1, 2)), atol=1e-6)
    share = encoded.norms / encoded.norms.sum(-1, keepdims=True)
    np.testing.assert_allclose(layers[1, 1], share[..., -1].mean((1, 2)), atol=1e-6)
    np.testing.assert_allclose(layers.sum(1), 1.0, atol=1e-5)
    np.testing.assert_allclose(view.shares, view.moved)  # contributions shown, nothing hidden


def test_mosaic_of_contributions_tops_at_a_percentile(encoded):
    r = rm.run(rm.Config(text=TEXT, view="model", measure="contributions"))
    assert r.mosaic_top == pytest.approx(float(np.percentile(encoded.norms, rm.MOSAIC_TOP)))
    assert r.png != rm.run(rm.Config(text=TEXT, view="model")).png


def test_unknown_measure_names_the_choices():
    with pytest.raises(InputError, match="measure must be one of weights, contributions"):
        rm.Config(text=TEXT, measure="norm")


@pytest.mark.parametrize("q", [rm.MOSAIC_TOP, 50, 0, 100, 75.5])
def test_the_mosaics_percentile_is_numpys_to_the_bit(encoded, q):
    rng = np.random.default_rng(int(q))
    arrays = [
        encoded.norms,
        encoded.attentions,
        rng.random((3, 4, 9, 9)).astype(np.float32),
        np.round(rng.random((2, 3, 5, 5)) * 4).astype(np.float32) / 4,  # many ties
        rng.random((2, 1, 1)).astype(np.float32),
    ]
    for maps in arrays:
        want, got = np.percentile(maps, q), rm.percentile(maps, q)
        assert got == want and type(got) is type(want)
