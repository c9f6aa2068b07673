"""Tiny randomly initialised Hugging Face folders (config.json, model.safetensors,
tokenizer.json) that tests build with ``transformers`` and ``tokenizers``: nothing is
downloaded. ``gpt2_folder`` and ``bert_folder`` write one into a folder and return it."""

from __future__ import annotations

from pathlib import Path

SENTENCES = [
    "The cat sat on the mat.",
    "Attention is all you need, they said.",
    "She gave him the book because he asked for it.",
    "A dog ran after the ball in the park.",
    "Every head of every layer has its own map.",
]


def _gpt2_tokenizer():
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=400,
        special_tokens=["<|endoftext|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tok.train_from_iterator(SENTENCES, trainer)
    return tok


def _bert_tokenizer():
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers

    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    tok.train_from_iterator(
        SENTENCES, trainers.WordPieceTrainer(vocab_size=300, special_tokens=specials)
    )
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[(t, tok.token_to_id(t)) for t in ("[CLS]", "[SEP]")],
    )
    return tok


def gpt2_folder(folder: Path, *, lm_head: bool = False, seed: int = 0, **config) -> Path:
    """A GPT-2 of 2 layers, 4 heads, D = 32 (or ``config``'s) with random weights."""
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel, GPT2Model

    tok = _gpt2_tokenizer()
    settings = dict(n_layer=2, n_head=4, n_embd=32, n_positions=64)
    settings.update(config)
    end = tok.token_to_id("<|endoftext|>")
    cfg = GPT2Config(
        vocab_size=tok.get_vocab_size(), bos_token_id=end, eos_token_id=end, **settings
    )
    torch.manual_seed(seed)
    model = (GPT2LMHeadModel if lm_head else GPT2Model)(cfg).eval()
    _perturb(model)
    folder.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(folder, safe_serialization=True)
    tok.save(str(folder / "tokenizer.json"))
    return folder


def bert_folder(folder: Path, *, mlm: bool = False, seed: int = 0, **config) -> Path:
    """A BERT of 2 layers, 4 heads, D = 32 (or ``config``'s) with random weights; ``mlm``:
    with its masked-word head (``BertForMaskedLM``, its body under ``bert.``)."""
    import torch
    from transformers import BertConfig, BertForMaskedLM, BertModel

    tok = _bert_tokenizer()
    settings = dict(
        num_hidden_layers=2,
        num_attention_heads=4,
        hidden_size=32,
        intermediate_size=64,
        max_position_embeddings=64,
    )
    settings.update(config)
    cfg = BertConfig(vocab_size=tok.get_vocab_size(), **settings)
    torch.manual_seed(seed)
    model = (BertForMaskedLM if mlm else BertModel)(cfg).eval()
    _perturb(model)
    folder.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(folder, safe_serialization=True)
    tok.save(str(folder / "tokenizer.json"))
    return folder


def _perturb(model) -> None:
    """Non-trivial biases and LN parameters (initialised to 0 and 1), larger weights: a
    swapped, transposed or missing tensor then shows in every comparison."""
    import torch

    g = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for p in model.parameters():
            p.add_(0.1 * torch.randn(p.shape, generator=g))
