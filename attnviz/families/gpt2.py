"""GPT-2 (GPT2Model, GPT2LMHeadModel): pre-LN, causal, tanh-approximated GELU, learned
absolute positions, no token types, an LN after the last block.

    X⁰ = E_word[t_i] + E_pos[i];  Xˡ = Block_l(Xˡ⁻¹) (pre-LN, causal);  out = LN_f(X^L)

GPT-2 stores its projections as ``Conv1D``: W (in, out) with y = x W + b, already the way
attnviz multiplies. ``c_attn`` fuses W^Q, W^K, W^V as (D, 3·H·D′): split in three, then each
per head (head h owns columns h·D′ … (h+1)·D′), so that what each source sends through each
head, ‖a_ij f_h(x_j)‖, is computed as for any other model. GPT-2 adds no special token: its
first token is where heads park weight (the attention sink), whatever it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import torch

from .base import Arch, Checkpoint, Family, per_head


class Gpt2(Family):
    name, label = "gpt2", "GPT-2"
    model_types = ("gpt2",)
    prefixes = ("transformer.", "")
    ignored: ClassVar[dict[str, str]] = {
        r"(transformer\.)?h\.\d+\.attn\.(masked_)?bias": "the causal mask as a buffer (built"
        " from the config here)",
        r"lm_head\.weight": "the read-out to the vocabulary is tied to E_word and follows the"
        " last layer",
    }
    role_labels: ClassVar[dict[str, str]] = {"cls": "real_model.sink_first"}
    strings: ClassVar[dict[str, str]] = {
        "intro": "real_model.intro_gpt2",
        "specials": "real_model.specials_first",
        "each": "real_model.each_first",
        "tokens": "real_model.tokens_plain",
        "tokenizer": "real_model.bpe",
    }
    sink_latex = r"\{1\}"  # the set of the first position

    def arch(self, c: dict) -> Arch:
        D = c.get("n_embd", 768)
        act = {"gelu_new": "gelu_tanh", "gelu_pytorch_tanh": "gelu_tanh", "gelu": "gelu"}
        if c.get("scale_attn_by_inverse_layer_idx") or c.get("reorder_and_upcast_attn"):
            raise ValueError("scale_attn_by_inverse_layer_idx / reorder_and_upcast_attn")
        if c.get("scale_attn_weights") is False:
            raise ValueError("scale_attn_weights = false")
        return Arch(
            L=c.get("n_layer", 12),
            D=D,
            H=c.get("n_head", 12),
            d_ff=c.get("n_inner") or 4 * D,
            vocab=c.get("vocab_size", 50257),
            n_ctx=c.get("n_positions", 1024),
            token_types=0,
            embed_ln=False,
            norm="pre",
            final_norm=True,
            causal=True,
            activation=act[c.get("activation_function", "gelu_new")],
            eps=c.get("layer_norm_epsilon", 1e-5),
        )

    def convert(self, w: Checkpoint, model: torch.nn.Module) -> None:
        e, H = model.embeddings, model.arch.H
        e.E_word.copy_(w.take("wte.weight"))
        e.E_pos.copy_(w.take("wpe.weight"))
        for i, block in enumerate(model.stack.blocks):
            p, a = f"h.{i}.", block.attn
            W_QKV = w.take(f"{p}attn.c_attn.weight")  # (D, 3·H·D'): [W^Q | W^K | W^V]
            b_QKV = w.take(f"{p}attn.c_attn.bias")  # (3·H·D',)
            for ours, W, b in zip("QKV", W_QKV.chunk(3, 1), b_QKV.chunk(3), strict=True):
                getattr(a, f"W_{ours}").copy_(per_head(W, H))  # (H, D, D')
                getattr(a, f"b_{ours}").copy_(b.view(H, -1))  # (H, D')
            a.W_O.copy_(w.take(f"{p}attn.c_proj.weight").reshape(a.W_O.shape))  # (H, D', D)
            a.b_O.copy_(w.take(f"{p}attn.c_proj.bias"))
            block.ln_1.gamma.copy_(w.take(f"{p}ln_1.weight"))
            block.ln_1.beta.copy_(w.take(f"{p}ln_1.bias"))
            block.ffn.W_1.copy_(w.take(f"{p}mlp.c_fc.weight"))  # (D, D_ff)
            block.ffn.b_1.copy_(w.take(f"{p}mlp.c_fc.bias"))
            block.ffn.W_2.copy_(w.take(f"{p}mlp.c_proj.weight"))  # (D_ff, D)
            block.ffn.b_2.copy_(w.take(f"{p}mlp.c_proj.bias"))
            block.ln_2.gamma.copy_(w.take(f"{p}ln_2.weight"))
            block.ln_2.beta.copy_(w.take(f"{p}ln_2.bias"))
        model.stack.final_ln.gamma.copy_(w.take("ln_f.weight"))
        model.stack.final_ln.beta.copy_(w.take("ln_f.bias"))

    def roles(self, special: Sequence[int]) -> tuple[str | None, ...]:
        """No special token is added: the first token, whatever it is, is the candidate."""
        return tuple("cls" if i == 0 else None for i in range(len(special)))


FAMILY = Gpt2()
