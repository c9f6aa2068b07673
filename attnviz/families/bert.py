"""BERT and its family (bert-base, MiniLM, …): post-LN, bidirectional, exact GELU, learned
absolute positions and token types, an LN on the embeddings.

    X⁰ = LN_emb(E_word[t_i] + E_pos[i] + E_type[0]);  Xˡ = Block_l(Xˡ⁻¹)  (post-LN)

The checkpoint stores each ``nn.Linear`` as W (out, in) with y = x Wᵀ + b, heads stacked
along ``out``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import torch

from .base import Arch, Checkpoint, Family, per_head


class Bert(Family):
    name, label = "bert", "BERT"
    model_types = ("bert",)
    prefixes = ("bert.", "")
    ignored: ClassVar[dict[str, str]] = {
        r"(bert\.)?embeddings\.position_ids": "a buffer of 0 … N−1, not a weight",
        r"(bert\.)?pooler\..*": "the pooler reads [CLS] after the last layer: no attention",
        r"cls\..*": "the masked-word and next-sentence heads read the last layer's output",
    }
    role_labels: ClassVar[dict[str, str]] = {
        "cls": "real_model.sink_cls",
        "sep": "real_model.sink_sep",
    }
    strings: ClassVar[dict[str, str]] = {
        "intro": "real_model.intro_bert",
        "specials": "real_model.specials_cls_sep",
        "each": "real_model.each_cls_sep",
        "tokens": "real_model.tokens",
        "tokenizer": "real_model.wordpiece",
    }
    sink_latex = r"[\mathrm{CLS}], [\mathrm{SEP}]"  # the two special tokens

    def arch(self, c: dict) -> Arch:
        if c.get("position_embedding_type", "absolute") != "absolute":
            raise ValueError(f"position_embedding_type {c['position_embedding_type']!r}")
        act = {"gelu": "gelu", "gelu_new": "gelu_tanh", "relu": "relu"}[c.get("hidden_act")]
        return Arch(
            L=c["num_hidden_layers"],
            D=c["hidden_size"],
            H=c["num_attention_heads"],
            d_ff=c["intermediate_size"],
            vocab=c["vocab_size"],
            n_ctx=c["max_position_embeddings"],
            token_types=c.get("type_vocab_size", 2),
            embed_ln=True,
            norm="post",
            final_norm=False,
            causal=False,
            activation=act,
            eps=c.get("layer_norm_eps", 1e-12),
        )

    def convert(self, w: Checkpoint, model: torch.nn.Module) -> None:
        e, H = model.embeddings, model.arch.H
        e.E_word.copy_(w.take("embeddings.word_embeddings.weight"))
        e.E_pos.copy_(w.take("embeddings.position_embeddings.weight"))
        e.E_type.copy_(w.take("embeddings.token_type_embeddings.weight"))
        e.ln.gamma.copy_(w.take("embeddings.LayerNorm.weight"))
        e.ln.beta.copy_(w.take("embeddings.LayerNorm.bias"))
        for i, block in enumerate(model.stack.blocks):
            p, a = f"encoder.layer.{i}.", block.attn
            for ours, theirs in (("Q", "query"), ("K", "key"), ("V", "value")):
                W = w.take(f"{p}attention.self.{theirs}.weight")  # (H·D', D)
                getattr(a, f"W_{ours}").copy_(per_head(W.T, H))  # (H, D, D')
                b = w.take(f"{p}attention.self.{theirs}.bias")  # (H·D',)
                getattr(a, f"b_{ours}").copy_(b.view(H, -1))  # (H, D')
            a.W_O.copy_(w.take(f"{p}attention.output.dense.weight").T.reshape(a.W_O.shape))
            a.b_O.copy_(w.take(f"{p}attention.output.dense.bias"))
            block.ln_1.gamma.copy_(w.take(f"{p}attention.output.LayerNorm.weight"))
            block.ln_1.beta.copy_(w.take(f"{p}attention.output.LayerNorm.bias"))
            block.ffn.W_1.copy_(w.take(f"{p}intermediate.dense.weight").T)  # (D, D_ff)
            block.ffn.b_1.copy_(w.take(f"{p}intermediate.dense.bias"))
            block.ffn.W_2.copy_(w.take(f"{p}output.dense.weight").T)  # (D_ff, D)
            block.ffn.b_2.copy_(w.take(f"{p}output.dense.bias"))
            block.ln_2.gamma.copy_(w.take(f"{p}output.LayerNorm.weight"))
            block.ln_2.beta.copy_(w.take(f"{p}output.LayerNorm.bias"))

    def roles(self, special: Sequence[int]) -> tuple[str | None, ...]:
        """[CLS] opens the sequence, [SEP] closes it: the first special token, then the rest."""
        first = next((i for i, s in enumerate(special) if s), None)
        return tuple(
            None if not s else ("cls" if i == first else "sep") for i, s in enumerate(special)
        )


FAMILY = Bert()
