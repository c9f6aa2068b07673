"""Every lesson that builds engine modules builds them on ``resolve_device()`` (CUDA, then
MPS, then CPU): here a stand-in device, cpu:0, tells its modules apart from any built on a
hard-coded "cpu"; the same seed gives the same numbers either way (to float32 rounding,
which is what differs when tools/gpu-check.sh runs the first pass on CUDA)."""

import sys

import numpy as np
import pytest
import torch
from torch import nn

import attnviz
from attnviz import device as device_module
from attnviz.lessons import block_anatomy, depth_gradients, equivariance, multihead

STAND_IN = torch.device("cpu", 0)
CASES = {
    "multihead": lambda: multihead.run(multihead.Config(text="a b c", D=16, H=2)),
    "equivariance": lambda: equivariance.run(equivariance.Config(text="a b c", D=16, H=2)),
    "block_anatomy": lambda: block_anatomy.run(block_anatomy.Config(text="a b c", D=16, H=2)),
    "depth_gradients": lambda: depth_gradients.run(depth_gradients.Config(L=2, D=16, seeds=1)),
}


@pytest.fixture
def moves(monkeypatch):
    """Patch resolve_device everywhere attnviz imported it; record every module's .to()."""
    real = device_module.resolve_device

    def stand_in(device="auto", **kw):
        return STAND_IN if device == "auto" else real(device, **kw)

    for name, module in list(sys.modules.items()):
        if name.startswith("attnviz") and getattr(module, "resolve_device", None) is real:
            monkeypatch.setattr(module, "resolve_device", stand_in)
    seen, to = [], nn.Module.to

    def spy(self, *args, **kwargs):
        if isinstance(self, attnviz.MultiHeadAttention | attnviz.TransformerBlock):
            seen.append(torch.device(args[0] if args else kwargs["device"]))
        return to(self, *args, **kwargs)

    monkeypatch.setattr(nn.Module, "to", spy)
    return seen


@pytest.mark.parametrize("lesson", sorted(CASES))
def test_lesson_builds_its_modules_on_the_resolved_device(lesson, moves):
    CASES[lesson]()
    assert moves and all(d == STAND_IN for d in moves), moves


@pytest.mark.parametrize("lesson", sorted(CASES))
def test_the_device_path_gives_the_same_numbers(lesson, monkeypatch):
    plain = CASES[lesson]()
    monkeypatch.setenv("ATTNVIZ_DEVICE", "cpu")
    again = CASES[lesson]()
    for name, value in vars(plain).items():
        if isinstance(value, np.ndarray):
            np.testing.assert_allclose(getattr(again, name), value, rtol=1e-5, atol=1e-6)
