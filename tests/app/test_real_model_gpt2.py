"""The real-model page on a tiny GPT-2 folder (tests/tiny_models.py) listed through
ATTNVIZ_MODELS: the picker offers it, its maps are causal (the masked half masked), its
sinks are on the first token, its blocks are shown pre-LN; a bad folder gets a translated
message, never a traceback; a model over the server's caps is refused on the page."""

import json

import numpy as np
import pytest
import torch
from safetensors.torch import load_file, save_file

from attnviz.i18n import t
from attnviz.lessons import real_model as rm
from attnviz.lessons.real_model import forward, models
from tests.app.helpers import assert_clean, captions, component, headings, latex, map_z, run_page
from tests.tiny_models import gpt2_folder

TEXT = "The cat sat on the mat."


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("models")
    gpt2_folder(root / "gpt2-tiny")
    gpt2_folder(root / "gpt2-wide", n_layer=25, n_head=1, n_embd=8)  # over MAX_LAYERS = 24
    gpt2_folder(root / "gpt2-long", n_layer=1, n_head=2, n_embd=8, n_positions=1024)
    broken = gpt2_folder(root / "gpt2-broken")
    (broken / "tokenizer.json").unlink()
    extra = gpt2_folder(root / "gpt2-extra")
    tensors = load_file(str(extra / "model.safetensors"))
    tensors["h.0.attn.rotary.weight"] = torch.zeros(2)
    save_file(tensors, str(extra / "model.safetensors"))
    (root / "llama-tiny").mkdir()
    (root / "llama-tiny" / "config.json").write_text(json.dumps({"model_type": "llama"}))
    return root


@pytest.fixture
def listed(folder, monkeypatch):
    monkeypatch.setenv("ATTNVIZ_MODELS", str(folder))
    monkeypatch.setenv("HF_HUB_CACHE", str(folder / "no-cache"))
    return folder


def test_the_picker_lists_the_shipped_model_and_the_folders(listed):
    found = models.found()
    assert next(iter(found)) == "all-MiniLM-L6-v2"
    assert {"gpt2-tiny", "gpt2-wide", "gpt2-broken", "llama-tiny"} <= set(found)
    with pytest.raises(ValueError, match="model must be one of"):
        models.resolve(str(listed / "gpt2-tiny"))  # a path is never a choice


def test_a_hugging_face_cache_snapshot_is_listed_as_it_is(tmp_path, monkeypatch):
    repo = tmp_path / "hub" / "models--someone--gpt2-tiny"
    snap = gpt2_folder(repo / "snapshots" / "abc123")
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("abc123")
    monkeypatch.delenv("ATTNVIZ_MODELS", raising=False)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    assert models.found()["hf:someone/gpt2-tiny"] == str(snap)
    assert rm.run(rm.Config(text=TEXT, layer=0, model="hf:someone/gpt2-tiny")).family == "GPT-2"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_page_runs_a_gpt2_folder(listed, lang):
    at = run_page("real_model", lang=lang, model="gpt2-tiny", text=TEXT, show="head", layer=1)
    assert_clean(at)
    assert at.selectbox(key="model").value == "gpt2-tiny"
    assert "gpt2\u2011tiny" in headings(at, 1)[0]
    norm = t("names.norm_pre", lang)
    assert any(norm in c for c in captions(at))  # its blocks: pre-LN, from its family
    assert any(t("real_model.intro_gpt2", lang)[:30] in m.value for m in at.markdown)
    enc = forward.encode(TEXT, "gpt2-tiny")[0]
    np.testing.assert_allclose(
        map_z(at)[np.tril_indices(len(enc.tokens))],
        enc.attentions[0, 0][np.tril_indices(len(enc.tokens))],
        atol=1e-6,
    )
    z = map_z(at)
    assert np.isnan(z[np.triu_indices(len(enc.tokens), 1)]).all()  # the masked half, masked
    payload = component(at, "attnviz.heatmap")
    assert payload["maskedLabel"] == t("app.masked", lang)
    first = t("real_model.sink_first", lang)
    assert at.toggle(key="hide_special").label == t(
        "real_model.hide_special", lang, specials=t("real_model.specials_first", lang)
    )
    r = rm.run(rm.Config(text=TEXT, layer=0, model="gpt2-tiny"))
    assert r.sinks.sink == "cls" and r.category_key("cls") == "real_model.sink_first"
    assert any(first in m.value and "%" in m.value for m in at.markdown)  # the sink sentence
    assert not any("[CLS]" in m.value or "[SEP]" in m.value for m in at.markdown)
    formulas = latex(at)
    assert any(r"c \in \{\{1\}, \mathcal{P}" in f for f in formulas)  # the first position
    assert not any("CLS" in f for f in formulas)


def test_the_mosaic_of_a_causal_model_greys_the_masked_half(listed):
    r = rm.run(rm.Config(text=TEXT, layer=0, model="gpt2-tiny"))
    N = len(r.tokens)
    tile = r.mosaic.tile(0, 0)
    n = r.mosaic.cell
    assert n == N  # no pooling at this size: one pixel per cell
    from attnviz.charts.raster import MASKED_RGB

    upper = tile[np.triu_indices(N, 1)]
    assert (upper == MASKED_RGB).all() and not (tile[np.tril_indices(N)] == MASKED_RGB).all(
        -1
    ).any()


def test_hiding_the_first_token_renormalises_the_rest(listed):
    r = rm.run(rm.Config(text=TEXT, layer=0, model="gpt2-tiny", view="head", hide_special=True))
    assert r.keep[0] == 1 and len(r.keep) == len(r.tokens) - 1
    rows = r.shown.sum(-1)
    np.testing.assert_allclose(rows[rows > 0], 1, atol=1e-5)
    assert r.masked is not None and r.masked.shape == r.shown.shape


@pytest.mark.parametrize(
    "model,key",
    [
        ("gpt2-wide", "model_caps"),
        ("gpt2-broken", "model_files"),
        ("llama-tiny", "model_arch"),
        ("gpt2-extra", "model_tensor_extra"),
    ],
)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_bad_folder_gets_a_translated_message(listed, model, key, lang):
    at = run_page("real_model", lang=lang, model=model, text=TEXT)
    assert_clean(at)
    assert len(at.error) == 1
    message = at.error[0].value
    expected = {
        "model_caps": "24",
        "model_files": "tokenizer.json",
        "model_arch": "llama",
        "model_tensor_extra": "h.0.attn.rotary.weight",
    }[key]
    assert expected in message
    japanese = any("\u3040" <= ch <= "\u30ff" for ch in message)  # kana: the ja catalogue
    assert japanese == (lang == "ja")


def test_the_layernorm_section_reads_a_pre_ln_model(listed):
    from attnviz.lessons.real_model import layernorm

    r = layernorm.run(layernorm.Config(text=TEXT, model="gpt2-tiny", layer=1, site="ln_2"))
    np.testing.assert_allclose(r.out, r.gamma * r.x_hat + r.beta, atol=1e-5)
    np.testing.assert_allclose(r.x_hat.mean(1), 0, atol=1e-5)


def test_a_weight_of_a_causal_model_followed_and_its_query_key_space(listed):
    """step_through recomputes a_ij under the causal mask and checks it against the trace."""
    from attnviz.lessons.real_model import probe

    s = probe.follow(probe.Pick(TEXT, layer=1, head=2, i=4, j=1, model="gpt2-tiny"))
    enc = forward.encode(TEXT, "gpt2-tiny")[0]
    assert abs(s.steps.a_ij - enc.attentions[1, 2, 4, 1]) < 1e-5
    assert not s.steps.m_row[5:].any() and s.steps.m_row[:5].all()  # keys after 4 masked
    q = probe.qk(probe.Probe(TEXT, layer=0, head=1, query=3, k=3, model="gpt2-tiny"))
    assert len(q.tokens) == len(enc.tokens)
    r = rm.run(rm.Config(text=TEXT, layer=0, model="gpt2-tiny"))
    assert r.sinks.largest_gap()[0] != "sep" and "sep" not in r.sinks.present


def test_the_page_reads_at_most_the_servers_n_tokens(listed):
    """GPT-2's context is 1024 tokens; the server's cap, MAX_N = 512, cuts the text first."""
    from attnviz.limits import MAX_N

    text = "a b c d e f g h . , " * 100  # 2000 characters, 1701 tokens
    r = rm.run(rm.Config(text=text, layer=0, model="gpt2-long"))
    assert r.truncated and len(r.tokens) == MAX_N == 512
    assert forward.model("gpt2-long").max_tokens == 1024


def test_the_model_picked_is_kept_in_the_url(listed):
    at = run_page("real_model", lang="en", text=TEXT)
    assert at.selectbox(key="model").value == "all-MiniLM-L6-v2"
    assert "model" not in at.query_params  # the default is left out of a link
    at.selectbox(key="model").set_value("gpt2-tiny").run()
    assert_clean(at)
    assert at.query_params["model"] in (["gpt2-tiny"], "gpt2-tiny")
    assert "gpt2\u2011tiny" in headings(at, 1)[0]
