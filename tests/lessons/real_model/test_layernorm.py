"""Issue 45, item 5 (S13): the real model's trained γ and β are one pair for every token, and
its FFN is D_ff = 1536 = 4D wide. Oracles: the weights file read with safetensors, the model's
config.json, and torch's own layer_norm on the block's input."""

import json

import numpy as np
import pytest
import torch
from safetensors.torch import load_file

from attnviz import formulas
from attnviz.lessons.real_model import forward
from attnviz.lessons.real_model import layernorm as ln
from attnviz.pretrained import model_dir

from ..real import TEXT

NAMES = {"ln_1": "attention.output.LayerNorm", "ln_2": "output.LayerNorm"}


@pytest.fixture(scope="module")
def weights():
    return load_file(str(model_dir(forward.MODEL) / "model.safetensors"))


@pytest.mark.parametrize(("layer", "site"), [(0, "ln_1"), (3, "ln_2"), (5, "ln_1")])
def test_gamma_and_beta_are_the_files_and_every_token_uses_them(weights, layer, site):
    r = ln.run(ln.Config(text=TEXT, layer=layer, site=site))
    prefix = f"encoder.layer.{layer}.{NAMES[site]}"
    np.testing.assert_array_equal(r.gamma, weights[f"{prefix}.weight"].double().numpy())
    np.testing.assert_array_equal(r.beta, weights[f"{prefix}.bias"].double().numpy())
    assert not np.allclose(r.gamma, 1) and not np.allclose(r.beta, 0)  # trained, not initial
    # torch's LayerNorm with the file's pair, on each token's own input, gives the output
    net = forward.model()
    _, traces = net(torch.tensor(net.tokenize(TEXT)[1]))
    before = traces[layer].sum_1 if site == "ln_1" else traces[layer].sum_2  # (1, N, D)
    eps = json.loads((model_dir(forward.MODEL) / "config.json").read_text())["layer_norm_eps"]
    oracle = torch.nn.functional.layer_norm(
        before[0].double(),
        (r.D,),
        weights[f"{prefix}.weight"].double(),
        weights[f"{prefix}.bias"].double(),
        eps,
    )
    np.testing.assert_allclose(r.out, oracle.numpy(), atol=2e-5)
    assert r.residual < 1e-5 and r.mean < 1e-5 and r.var < 1e-3
    assert len(r.tokens) == r.x_hat.shape[0] == r.out.shape[0] == 12


def test_another_pair_for_any_token_would_be_caught():
    """The check can fail: a β moved for one token leaves its points off the lines."""
    r = ln.run(ln.Config(text=TEXT, layer=1))
    moved = r.out.copy()
    moved[4] += 0.01
    assert np.abs(moved - (r.gamma * r.x_hat + r.beta)).max() > 100 * r.residual


def test_d_ff_is_four_times_d_as_the_config_says():
    cfg = json.loads((model_dir(forward.MODEL) / "config.json").read_text())
    r = ln.run(ln.Config(text=TEXT))
    assert (r.D, r.D_ff) == (cfg["hidden_size"], cfg["intermediate_size"]) == (384, 1536)
    assert r.formulas == [formulas.LAYER_NORM, formulas.ffn_width(384, 1536)]
    assert r.formulas[1] == r"D_{\mathrm{ff}} = 1536 = 4\,D,\quad D = 384"


def test_components_drawn_are_the_extremes():
    r = ln.run(ln.Config(text=TEXT, layer=2, site="ln_2"))
    assert r.components[0] == int(np.argmax(r.gamma)) and r.components[1] == int(np.argmin(r.gamma))
    assert int(np.argmax(np.abs(r.beta))) in r.components


@pytest.mark.parametrize("bad", [dict(layer=6), dict(site="ln_3"), dict(text="  ")])
def test_bad_config(bad):
    with pytest.raises(ValueError):
        ln.Config(**({"text": TEXT} | bad))
