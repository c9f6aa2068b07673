"""S13 on the real model: what a LayerNorm does to each token (its mean and variance before,
after normalising and after γ and β), the trained γ and β, and D_ff = 1536 = 4D. Oracles: the
weights file read with safetensors, the model's config.json, torch's own layer_norm on the
block's input, and torch's mean and variance."""

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
def test_each_tokens_mean_and_variance_before_and_after_and_the_files_pair(weights, layer, site):
    r = ln.run(ln.Config(text=TEXT, layer=layer, site=site))
    prefix = f"encoder.layer.{layer}.{NAMES[site]}"
    gamma, beta = weights[f"{prefix}.weight"].double(), weights[f"{prefix}.bias"].double()
    np.testing.assert_array_equal(r.gamma, gamma.numpy())
    np.testing.assert_array_equal(r.beta, beta.numpy())
    assert not np.allclose(r.gamma, 1) and not np.allclose(r.beta, 0)  # trained, not initial
    # the LN's input, the block's own sum; torch's layer_norm without and with the file's pair
    net = forward.model()
    _, traces = net(torch.tensor(net.tokenize(TEXT)[1]))
    before = (traces[layer].sum_1 if site == "ln_1" else traces[layer].sum_2)[0].double()
    eps = json.loads((model_dir(forward.MODEL) / "config.json").read_text())["layer_norm_eps"]
    x_hat = torch.nn.functional.layer_norm(before, (r.D,), eps=eps)
    out = torch.nn.functional.layer_norm(before, (r.D,), gamma, beta, eps)
    np.testing.assert_allclose(r.out, out.numpy(), atol=2e-5)
    np.testing.assert_allclose(r.x_mean, before.mean(-1).numpy(), atol=1e-9)
    np.testing.assert_allclose(r.x_var, before.var(-1, unbiased=False).numpy(), rtol=1e-9)
    np.testing.assert_allclose(r.hat_mean, x_hat.mean(-1).numpy(), atol=1e-6)
    np.testing.assert_allclose(r.hat_var, x_hat.var(-1, unbiased=False).numpy(), atol=1e-5)
    np.testing.assert_allclose(r.out_mean, out.mean(-1).numpy(), atol=1e-5)
    np.testing.assert_allclose(r.out_var, out.var(-1, unbiased=False).numpy(), rtol=1e-4)
    # the law: mean 0 and variance σ² / (σ² + ε) ≈ 1 after normalising, whatever the input's
    np.testing.assert_allclose(r.hat_mean, 0, atol=1e-6)
    np.testing.assert_allclose(r.hat_var, r.x_var / (r.x_var + eps), rtol=1e-5)
    assert len(r.tokens) == r.x_hat.shape[0] == r.out.shape[0] == len(r.x_mean) == 12


def test_the_input_is_not_normalised_and_gamma_beta_move_the_output_off_0_and_1():
    """What the numbers teach holds on this model: the tokens' spreads before the LN differ
    (σ_t from 0.7 to 4 at layer 4's second LN), and the trained γ (mean 0.7) makes the
    output's variance differ from 1, where x̂'s is 1 to 1e-6."""
    r = ln.run(ln.Config(text=TEXT, layer=3, site="ln_2"))
    sd = np.sqrt(r.x_var)
    assert sd.max() > 2 * sd.min()
    assert np.abs(r.hat_var - 1).max() < 1e-6
    assert np.abs(r.out_var - 1).min() > 0.1
    assert 0.5 < r.gamma.mean() < 0.9


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
