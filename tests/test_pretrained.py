"""all-MiniLM-L6-v2 run by attnviz's blocks vs transformers' own BERT on the same files;
the README's snippets, "your own layer" among them."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import torch

import attnviz
from attnviz.pretrained import model_dir

ROOT = Path(__file__).resolve().parents[1]
TEXTS = {
    "punctuation": "Wait... what?! (Really) -- yes; no: 'maybe' \"so\".",
    "numbers": "In 1969, 3.14159 × 2 = 6.28; call 555-0123 at 10:45pm.",
    "accents": "Crème brûlée, naïve façade, São Paulo, Ångström, Dvořák.",
    "emoji": "I love pizza 🍕🍕 and cats 🐱! 👍🏽",
    "japanese": "東京は日本の首都です。今日はいい天気ですね。",
    "one_word": "attention",
    "long": " ".join(f"Sentence {i} talks about topic {i % 7}, briefly." for i in range(40)),
}


@pytest.fixture(scope="module")
def model():
    return attnviz.load_pretrained("all-MiniLM-L6-v2")


@pytest.fixture(scope="module")
def reference():
    from transformers import AutoTokenizer, BertModel

    folder = str(model_dir("all-MiniLM-L6-v2"))
    bert = BertModel.from_pretrained(folder, attn_implementation="eager").eval()
    return AutoTokenizer.from_pretrained(folder), bert


def run_reference(reference, text: str, max_length: int | None = None):
    tok, bert = reference
    batch = tok(text, return_tensors="pt", truncation=max_length is not None, max_length=max_length)
    with torch.no_grad():
        out = bert(**batch, output_attentions=True)
    tokens = tok.convert_ids_to_tokens(batch["input_ids"][0])
    attentions = torch.stack([a[0] for a in out.attentions]).numpy()  # (L, H, N, N)
    return tokens, out.last_hidden_state[0].numpy(), attentions


@pytest.mark.parametrize("name", TEXTS)
def test_matches_reference_bert(model, reference, name):
    r = model.encode(TEXTS[name])
    tokens, hidden, attentions = run_reference(reference, TEXTS[name])
    assert r.tokens == tokens
    assert r.hidden.shape == (len(tokens), 384) and r.hidden.dtype == np.float32
    assert r.attentions.shape == (6, 12, len(tokens), len(tokens))
    np.testing.assert_allclose(r.hidden, hidden, atol=1e-4)
    for layer in range(6):  # every layer and head
        np.testing.assert_allclose(r.attentions[layer], attentions[layer], atol=1e-4)
    np.testing.assert_allclose(r.attentions.sum(-1), 1.0, atol=1e-5)
    assert not r.truncated


def test_varied_texts_cover_what_they_claim(model):
    assert len(model.encode(TEXTS["long"]).tokens) > 300
    assert model.encode(TEXTS["one_word"]).tokens == ["[CLS]", "attention", "[SEP]"]
    assert "[UNK]" in model.encode(TEXTS["emoji"]).tokens  # emoji are outside the vocabulary
    assert "東" in model.encode(TEXTS["japanese"]).tokens  # CJK split per character


def test_over_512_tokens_raises_or_truncates_visibly(model, reference):
    text = "word " * 600  # 602 tokens with [CLS] and [SEP]
    with pytest.raises(ValueError, match="512"):
        model.encode(text)
    r = model.encode(text, truncate=True)
    assert r.truncated and len(r.tokens) == 512 and r.tokens[0] == "[CLS]"
    assert r.tokens[-1] == "[SEP]"
    tokens, hidden, _ = run_reference(reference, text, max_length=512)
    assert r.tokens == tokens
    np.testing.assert_allclose(r.hidden, hidden, atol=1e-4)


@pytest.mark.parametrize("bad", ["", "   ", None, 3])
def test_bad_text_is_a_value_error(model, bad):
    with pytest.raises(ValueError, match="text"):
        model.encode(bad)


def test_unknown_model_names_the_choices():
    with pytest.raises(ValueError, match="all-MiniLM-L6-v2"):
        attnviz.load_pretrained("bert-base")


def test_loaded_once_and_read_only(model):
    assert attnviz.load_pretrained("all-MiniLM-L6-v2") is model
    assert not any(p.requires_grad for p in model.parameters())
    assert not model.training


def test_blocks_are_post_ln_with_exact_gelu_and_bert_eps(model):
    from transformers.activations import ACT2FN

    block = model.stack.blocks[0]
    assert block.norm == "post" and block.activation == "gelu" and block.ln_1.eps == 1e-12
    x = torch.linspace(-6, 6, 101)
    torch.testing.assert_close(block.ffn.act(x), ACT2FN["gelu"](x), rtol=0, atol=0)
    assert not torch.allclose(block.ffn.act(x), torch.nn.functional.gelu(x, approximate="tanh"))


def readme_blocks() -> list[str]:
    """The README's Python code blocks that use attnviz."""
    text = (ROOT / "README.md").read_text()
    return [b for b in re.findall(r"```python\n(.*?)```", text, flags=re.S) if "attnviz" in b]


def run_shown(code: str, monkeypatch, scope: dict | None = None) -> tuple[dict, list]:
    """Execute ``code`` with Figure.show captured instead of opening a browser."""
    import plotly.graph_objects as go

    shown: list = []
    monkeypatch.setattr(go.Figure, "show", lambda self, *a, **k: shown.append(self))
    scope = {} if scope is None else scope
    exec(code, scope)
    return scope, shown


def test_readme_snippets_run_in_order_like_a_notebook(monkeypatch):
    blocks = readme_blocks()
    assert len(blocks) >= 3
    scope: dict = {}
    for code in blocks:
        _, shown = run_shown(code, monkeypatch, scope)
        assert shown  # every snippet draws something


def test_readme_own_layer_snippet_matches_pytorch(monkeypatch):
    (code,) = [b for b in readme_blocks() if "from_torch(layer)" in b]
    scope, shown = run_shown(code, monkeypatch)
    assert len(shown) == 3
    with torch.no_grad():
        torch.testing.assert_close(scope["out"], scope["layer"](scope["x"]), atol=1e-5, rtol=0)
