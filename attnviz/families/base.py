"""What a model family knows, in one object: its config → the stack's arguments (``Arch``),
its checkpoint's tensors → attnviz's parameters with strict accounting (``Checkpoint``), and
its tokenizer's special tokens and their roles (the sink candidates).

A family never compares another family's name; the pretrained model, the lessons and the
pages ask the family what it does (TransformerLens's per-family converters, nanoGPT's
assertion that the checkpoint's keys and the model's match).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import torch

from ..errors import InputError

ROLES = ("cls", "sep")  # sink candidates: the opening slot and the closing one (sinks.CATEGORIES)


@dataclass(frozen=True)
class Arch:
    """A checkpoint's architecture, as attnviz's embeddings and ``TransformerStack`` take it."""

    L: int  # blocks
    D: int  # width
    H: int  # heads
    d_ff: int  # the FFN's hidden width
    vocab: int  # rows of E_word
    n_ctx: int  # rows of E_pos: the most tokens the model reads
    token_types: int  # rows of E_type (0: no token types)
    embed_ln: bool  # an LN right after the embeddings (BERT)
    norm: str  # "post" (BERT) | "pre" (GPT-2): attnviz.norms.NORMS
    final_norm: bool  # an LN after the last block (pre-LN models)
    causal: bool  # token i attends to j ≤ i only
    activation: str  # the FFN's: attnviz.block.ACTIVATIONS
    eps: float  # every LN's ε


class Checkpoint:
    """A checkpoint's tensors, each to be taken exactly once or ignored with a reason.

    ``take(key)`` returns the tensor ``prefix + key`` (ValueError naming it when missing);
    ``finish()`` refuses any tensor neither taken nor matched by an ``ignored`` pattern.
    """

    def __init__(
        self, tensors: dict[str, torch.Tensor], prefix: str, ignored: dict[str, str]
    ) -> None:
        self.tensors, self.prefix = tensors, prefix
        self.ignored = {re.compile(pattern): why for pattern, why in ignored.items()}
        self.taken: set[str] = set()

    def take(self, key: str) -> torch.Tensor:
        name = self.prefix + key
        if name not in self.tensors:
            raise InputError(
                f"the checkpoint has no tensor {name!r}", "model_tensor_missing", tensor=name
            )
        if name in self.taken:
            raise RuntimeError(f"the converter took {name!r} twice")
        self.taken.add(name)
        return self.tensors[name]

    def why_ignored(self, name: str) -> str | None:
        """The reason ``name`` is left out, or None if no pattern lists it."""
        return next((why for p, why in self.ignored.items() if p.fullmatch(name)), None)

    def finish(self) -> None:
        left = sorted(n for n in self.tensors if n not in self.taken and not self.why_ignored(n))
        if left:
            more = f" (and {len(left) - 1} more)" if len(left) > 1 else ""
            raise InputError(
                f"the checkpoint has a tensor attnviz does not use: {left[0]!r}{more}",
                "model_tensor_extra",
                tensor=left[0],
                more=len(left) - 1,
            )


class Family:
    """One architecture's choices. Subclasses set the class attributes and the methods."""

    name: str = ""  # internal name, e.g. "bert"
    label: str = ""  # shown: "BERT", "GPT-2"
    model_types: tuple[str, ...] = ()  # config.json's "model_type" values it reads
    prefixes: tuple[str, ...] = ("",)  # where the body's tensors live in a checkpoint
    ignored: ClassVar[dict[str, str]] = {}  # full-name pattern → why the tensor is not used
    # the sink candidates' shown names: a key of the strings for each role in ROLES it has
    role_labels: ClassVar[dict[str, str]] = {}
    # what the real-model page says of the family, as string keys: "intro" (its blocks),
    # "specials" (its sink candidates, as a phrase), "each" (the same, listed), "tokens" (how many),
    # "tokenizer"
    strings: ClassVar[dict[str, str]] = {}
    sink_latex: str = ""  # its sink candidates in the sinks' formula, as LaTeX

    def arch(self, config: dict) -> Arch:
        raise NotImplementedError

    def convert(self, ckpt: Checkpoint, model: torch.nn.Module) -> None:
        """Copy every tensor of the body into ``model`` (a ``PretrainedModel``)."""
        raise NotImplementedError

    def roles(self, special: Sequence[int]) -> tuple[str | None, ...]:
        """Each token's role in ROLES (None: an ordinary token), from the tokenizer's mask of
        the special tokens it added (1 = special)."""
        raise NotImplementedError

    def prefix(self, names: Sequence[str]) -> str:
        """The prefix of the body's tensors: the first of ``prefixes`` that some name has."""
        return next((p for p in self.prefixes if p and any(n.startswith(p) for n in names)), "")


def per_head(W: torch.Tensor, H: int) -> torch.Tensor:
    """A projection stored as y = x W (D, H·D′), heads side by side → W_h (H, D, D′)."""
    D = W.shape[0]
    return W.reshape(D, H, -1).permute(1, 0, 2)  # (H, D, D')
