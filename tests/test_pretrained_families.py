"""Each family (attnviz.families) against transformers, on tiny random models that the test
builds and saves (tests/tiny_models.py): hidden states, every layer's and head's weights,
and the contributions ‖a_ij f_h(x_j)‖ from transformers' own value projections (a hook).
A checkpoint with an extra or a missing tensor is refused, naming it."""

import json

import numpy as np
import pytest
import torch
from safetensors.torch import load_file, save_file

import attnviz
from attnviz.errors import InputError
from attnviz.pretrained import encoded, encoding
from tests.tiny_models import bert_folder, gpt2_folder

TEXT = "The cat sat on the mat, and the dog ran after the ball."
TOL = 1e-4


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("models")
    return {
        "gpt2": gpt2_folder(root / "gpt2"),
        "gpt2_lm": gpt2_folder(root / "gpt2_lm", lm_head=True, seed=3),
        "bert": bert_folder(root / "bert"),
        "bert_mlm": bert_folder(root / "bert_mlm", mlm=True, seed=4),
    }


def reference(folder, ids):
    """transformers' hidden states, attentions and contributions, the values from a hook on
    its own value projection (BERT's ``value``, GPT-2's fused ``c_attn``)."""
    from transformers import AutoModel

    model = AutoModel.from_pretrained(folder, attn_implementation="eager").eval()
    cfg = model.config
    gpt2 = cfg.model_type == "gpt2"
    layers = model.h if gpt2 else model.encoder.layer
    values = {}

    def keep(i):
        def hook(_module, _inputs, out):
            values[i] = out.chunk(3, -1)[2] if gpt2 else out  # (1, N, H·D')

        return hook

    hooks = [
        (layer.attn.c_attn if gpt2 else layer.attention.self.value).register_forward_hook(keep(i))
        for i, layer in enumerate(layers)
    ]
    with torch.no_grad():
        out = model(torch.tensor([ids]), output_attentions=True, output_hidden_states=True)
    for h in hooks:
        h.remove()
    H = cfg.num_attention_heads
    norms = []
    for i, layer in enumerate(layers):
        # W^O as (H·D', D) with y = concat W^O: Conv1D stores it so, nn.Linear transposed
        W_O = layer.attn.c_proj.weight if gpt2 else layer.attention.output.dense.weight.T
        v = values[i][0].view(len(ids), H, -1).transpose(0, 1)  # (H, N, D')
        f = torch.einsum("hne,hed->hnd", v, W_O.view(H, -1, W_O.shape[1]))  # (H, N, D)
        A = out.attentions[i][0]  # (H, N, N)
        norms.append(A * f.norm(dim=-1)[:, None, :])
    return out, torch.stack(norms)


@pytest.mark.parametrize("which", ["gpt2", "gpt2_lm", "bert", "bert_mlm"])
def test_parity_with_transformers(folders, which):
    model = attnviz.load_pretrained(str(folders[which]), device="cpu")
    r = model.encode(TEXT)
    out, norms = reference(folders[which], list(r.ids))
    torch.testing.assert_close(
        torch.from_numpy(r.hidden), out.last_hidden_state[0], atol=TOL, rtol=0
    )
    _, traces = model(torch.tensor(r.ids))
    for layer in range(model.L - 1):  # after each block (GPT-2's last one is after ln_f)
        ours = traces[layer].resid_post[0]
        torch.testing.assert_close(ours, out.hidden_states[layer + 1][0], atol=TOL, rtol=0)
    theirs = torch.stack([a[0] for a in out.attentions])  # (L, H, N, N)
    torch.testing.assert_close(torch.from_numpy(r.attentions), theirs, atol=TOL, rtol=0)
    torch.testing.assert_close(torch.from_numpy(r.norms), norms, atol=TOL, rtol=0)
    causal = model.arch.causal
    assert causal == which.startswith("gpt2")
    upper = torch.from_numpy(r.attentions).triu(1)
    assert (upper.abs().max() == 0) == causal  # a causal model's upper triangle is masked


@pytest.mark.parametrize("which", ["gpt2", "bert"])
def test_a_layer_at_a_time_is_the_whole_pass_to_the_bit(folders, which):
    model = attnviz.load_pretrained(str(folders[which]), device="cpu")
    tokens, ids, roles, cut = model.tokens_and_roles(TEXT)
    hidden, traces = model(torch.tensor(ids))
    whole = encoding(tokens, ids, hidden, traces, cut, roles)
    seen = []
    streamed = encoded(model, tokens, ids, cut, roles, take=lambda layer, t: seen.append(layer))
    assert seen == list(range(model.L))
    for name in ("ids", "hidden", "attentions", "norms"):
        np.testing.assert_array_equal(getattr(streamed, name), getattr(whole, name))
    assert streamed.attentions.dtype == streamed.norms.dtype == np.float32
    first = []  # the first block only: its output, before any final LN
    out = model.forward_each(torch.tensor(ids), lambda layer, t: first.append(t), layers=1)
    assert len(first) == 1
    torch.testing.assert_close(out, traces[0].resid_post[0], atol=0, rtol=0)


def test_each_family_says_what_it_is(folders):
    gpt2 = attnviz.load_pretrained(str(folders["gpt2"]), device="cpu")
    bert = attnviz.load_pretrained(str(folders["bert"]), device="cpu")
    assert (gpt2.arch.norm, gpt2.arch.final_norm, gpt2.arch.activation) == (
        "pre",
        True,
        "gelu_tanh",
    )
    assert (bert.arch.norm, bert.arch.final_norm, bert.arch.activation) == ("post", False, "gelu")
    assert gpt2.encode(TEXT).roles[0] == "cls" and set(gpt2.encode(TEXT).roles[1:]) == {None}
    roles = bert.encode(TEXT).roles
    assert roles[0] == "cls" and roles[-1] == "sep" and set(roles[1:-1]) == {None}


def test_the_loaded_model_is_shared_and_keyed_by_its_files(folders, tmp_path):
    folder = gpt2_folder(tmp_path / "g", seed=5)
    first = attnviz.load_pretrained(str(folder), device="cpu")
    assert attnviz.load_pretrained(str(folder), device="cpu") is first
    assert not any(p.requires_grad for p in first.parameters())
    gpt2_folder(tmp_path / "g", seed=6)  # the same folder, other weights
    second = attnviz.load_pretrained(str(folder), device="cpu")
    assert second is not first
    assert not torch.equal(second.embeddings.E_word, first.embeddings.E_word)


def _rewrite(src, dst, change):
    dst.mkdir()
    for name in ("config.json", "tokenizer.json"):
        (dst / name).write_bytes((src / name).read_bytes())
    tensors = load_file(str(src / "model.safetensors"))
    change(tensors)
    save_file(tensors, str(dst / "model.safetensors"))
    return dst


@pytest.mark.parametrize("which", ["gpt2", "bert"])
def test_an_extra_tensor_is_refused_by_name(folders, tmp_path, which):
    def extra(t):
        t["h.0.attn.rotary.weight" if which == "gpt2" else "encoder.layer.0.extra.weight"] = (
            torch.zeros(2)
        )

    folder = _rewrite(folders[which], tmp_path / "m", extra)
    with pytest.raises(
        InputError, match=r"does not use: '(h\.0\.attn\.rotary|encoder\.layer\.0\.extra)\.weight'"
    ):
        attnviz.load_pretrained(str(folder), device="cpu")


@pytest.mark.parametrize(
    "which,name",
    [
        ("gpt2", "h.1.mlp.c_fc.bias"),
        ("gpt2", "ln_f.weight"),
        ("bert", "encoder.layer.1.attention.self.key.weight"),
    ],
)
def test_a_missing_tensor_is_refused_by_name(folders, tmp_path, which, name):
    folder = _rewrite(folders[which], tmp_path / "m", lambda t: t.pop(name))
    with pytest.raises(InputError, match=f"no tensor '{name}'") as err:
        attnviz.load_pretrained(str(folder), device="cpu")
    assert err.value.key == "model_tensor_missing"


def test_ignored_tensors_are_listed_with_a_reason(folders, tmp_path):
    """GPT-2's causal-mask buffers and a tied read-out load; each is ignored by a reason."""

    def old_style(t):
        t["h.0.attn.bias"] = torch.ones(1, 1, 64, 64).tril()
        t["h.0.attn.masked_bias"] = torch.tensor(-1e4)
        t["lm_head.weight"] = t["wte.weight"].clone()

    folder = _rewrite(folders["gpt2"], tmp_path / "m", old_style)
    model = attnviz.load_pretrained(str(folder), device="cpu")
    ref = attnviz.load_pretrained(str(folders["gpt2"]), device="cpu")
    assert (model.encode(TEXT).hidden == ref.encode(TEXT).hidden).all()
    for name in ("h.0.attn.bias", "h.0.attn.masked_bias", "lm_head.weight"):
        assert model.family.ignored and any(
            __import__("re").fullmatch(p, name) for p in model.family.ignored
        )


@pytest.mark.parametrize(
    "change,key",
    [
        (lambda f: (f / "tokenizer.json").unlink(), "model_files"),
        (
            lambda f: (f / "config.json").write_text(json.dumps({"model_type": "llama"})),
            "model_arch",
        ),
        (lambda f: (f / "config.json").write_text("{not json"), "model_config"),
        (lambda f: (f / "model.safetensors").write_bytes(b"nonsense"), "model_weights"),
    ],
)
def test_bad_folders_are_input_errors(folders, tmp_path, change, key):
    folder = _rewrite(folders["gpt2"], tmp_path / "m", lambda t: None)
    change(folder)
    with pytest.raises(InputError) as err:
        attnviz.load_pretrained(str(folder), device="cpu")
    assert err.value.key == key
    with pytest.raises(InputError) as err:
        attnviz.load_pretrained(str(tmp_path / "absent"))
    assert err.value.key == "model_unknown"


def test_a_long_text_is_cut_keeping_a_closing_special_token(folders):
    gpt2 = attnviz.load_pretrained(str(folders["gpt2"]), device="cpu")
    bert = attnviz.load_pretrained(str(folders["bert"]), device="cpu")
    long = " ".join(["the cat sat on the mat."] * 40)
    for model in (gpt2, bert):
        with pytest.raises(ValueError, match="reads at most 64"):
            model.encode(long)
        r = model.encode(long, truncate=True)
        assert r.truncated and len(r.tokens) == 64
    assert bert.encode(long, truncate=True).tokens[-1] == "[SEP]"
