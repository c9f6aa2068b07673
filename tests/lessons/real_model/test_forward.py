"""The real model's forward pass kept per text: rollout's laws."""

import numpy as np
import pytest

from attnviz.lessons.real_model import forward


def test_rollout_laws():
    rng = np.random.default_rng(0)
    A = rng.random((4, 3, 5, 5))
    A /= A.sum(-1, keepdims=True)
    R = forward.rollout(A)
    assert R.shape == (4, 5, 5)
    np.testing.assert_allclose(R.sum(-1), 1.0, atol=1e-6)
    first = 0.5 * A[0].mean(0) + 0.5 * np.eye(5)  # rows of mean + I sum to 2
    np.testing.assert_allclose(R[0], first, atol=1e-6)
    second = (0.5 * A[1].mean(0) + 0.5 * np.eye(5)) @ first
    np.testing.assert_allclose(R[1], second, atol=1e-6)
    np.testing.assert_allclose(
        forward.rollout(np.broadcast_to(np.eye(5), (3, 2, 5, 5)))[-1], np.eye(5)
    )
    with pytest.raises(ValueError, match="L, H, N, N"):
        forward.rollout(A[0])
