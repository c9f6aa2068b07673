"""Lessons that take gradients run torch on one intra-op thread, and the count comes back
(the training race's own test: tests/lessons/test_training_race.py)."""

import torch

from attnviz.lessons import depth_model
from attnviz.lessons.threads import THREADS


def test_the_depth_gradients_run_on_one_thread_and_give_the_count_back(monkeypatch):
    before = torch.get_num_threads()
    seen = []
    forward = depth_model._output

    def spy(*args):
        seen.append(torch.get_num_threads())
        return forward(*args)

    monkeypatch.setattr(depth_model, "_output", spy)
    depth_model.layer_gradients(2, 16, seed=0)
    assert seen and set(seen) == {THREADS} == {1}
    assert torch.get_num_threads() == before
