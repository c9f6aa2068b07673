"""Xiong et al.'s Fig. 3 (a), (b) on a model of their shape, apart from the depth page (S14).

The page's stack is one kind of block on random tokens. Their model is an encoder–decoder
(6 + 6 layers) translating real sentences. This module builds that shape from PyTorch's own
``nn.Transformer`` and measures, at initialisation, ‖∂ℒ/∂W_2‖ of every layer's FFN:

  * real English sentences, tokenised by the shipped WordPiece tokenizer (all-MiniLM-L6-v2's);
    each sentence's target is the next sentence of ``SENTENCES``;
  * fairseq's initialisation of translation models: Xavier-uniform matrices, zero
    biases, γ = 1, β = 0; embeddings N(0, 1/D), multiplied by √D, plus sinusoidal positions;
    the embedding shared with the output projection;
  * ℒ: cross-entropy of each next target token over the whole vocabulary (30,522 words);
  * post-LN (``norm_first=False``) or pre-LN, with a final LN after each stack (for post-LN it
    changes nothing: the last block's output is already normalised);
  * ``cross=False`` feeds the decoder's cross-attention zeros instead of the encoder's output,
    so that the decoder is a causal stack of self-attention and FFN alone.

Measured (D = 256, seeds 0–2, layer 6 over layer 1, read by ``depth_gradients.direction``):
post-LN's decoder ×3.56 (rises, as their (a)), its encoder ×1.09 (about the same); with the
cross-attention fed zeros the decoder's ×1.25, at the edge of about the same: 83 % of the rise
on a log scale goes with the cross-attention (``cross_share``). Pre-LN's fall: encoder ×0.59,
decoder ×0.72, without cross-attention ×0.63, where their (b) is about the same (not
reproduced; why is not established).
One seed takes about a second; the depth page runs it on request, ``tools/depth_paper_shape.py``
prints it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from ..limits import check_int
from ..positional import sinusoidal
from ..pretrained import model_dir
from .depth_gradients import direction
from .threads import one_thread

MODEL = "all-MiniLM-L6-v2"  # whose tokenizer reads the sentences
SENTENCES = (
    "The animal didn't cross the street because it was too tired.",
    "The quick brown fox jumps over the lazy dog.",
    "Attention lets every token look at every other token in the sentence.",
    "A student moves a slider and the figure is computed again.",
    "The cat sat on the mat while the dog slept by the door.",
    "Layer normalisation keeps each token's scale under control.",
    "We went to the market in the morning and bought fresh bread.",
    "The weather was cold, so the children stayed inside and read books.",
)
L, H = 6, 4  # Xiong et al.'s 6 + 6 layers; heads


def _batch(ids: list[list[int]]) -> tuple[torch.Tensor, torch.Tensor]:
    """Ids padded with 0 to the longest, and the padding mask (True = padding, PyTorch's)."""
    n = max(map(len, ids))
    out = torch.zeros(len(ids), n, dtype=torch.long)
    pad = torch.ones(len(ids), n, dtype=torch.bool)
    for k, x in enumerate(ids):
        out[k, : len(x)], pad[k, : len(x)] = torch.tensor(x), False
    return out, pad


def layer_gradients(
    norm: str, seed: int, D: int = 256, cross: bool = True
) -> dict[str, np.ndarray]:
    """{"encoder": (L,), "decoder": (L,)} ‖∂ℒ/∂W_2‖_F of each layer's FFN, at initialisation;
    the decoder's alone where ``cross`` is False (the loss then does not reach the encoder).

    ``norm``: "post" or "pre"; ``cross``: whether the decoder attends to the encoder's output.
    """
    from tokenizers import Tokenizer  # the page never needs it: imported when measured

    if norm not in ("post", "pre"):
        raise ValueError(f"norm must be post or pre, got {norm!r}")
    tokenizer = Tokenizer.from_file(str(model_dir(MODEL) / "tokenizer.json"))
    tokenizer.no_padding()
    V = tokenizer.get_vocab_size()
    ids = [tokenizer.encode(s).ids for s in SENTENCES]
    src, src_pad = _batch(ids)  # (B, N_src)
    tgt, tgt_pad = _batch(ids[1:] + ids[:1])  # each sentence's target: the next one
    with one_thread():
        torch.manual_seed(seed)
        model = torch.nn.Transformer(
            D, H, L, L, 4 * D, dropout=0.0, batch_first=True, norm_first=norm == "pre"
        )
        for name, p in model.named_parameters():
            if p.dim() > 1:
                torch.nn.init.xavier_uniform_(p)
            elif "norm" not in name:
                torch.nn.init.zeros_(p)
        E = torch.randn(V, D) / math.sqrt(D)  # (V, D) shared with the output projection
        x = E[src] * math.sqrt(D) + sinusoidal(src.shape[1], D).float()  # (B, N_src, D)
        y_in = E[tgt[:, :-1]] * math.sqrt(D) + sinusoidal(tgt.shape[1] - 1, D).float()
        memory = model.encoder(x, src_key_padding_mask=src_pad)  # (B, N_src, D)
        if not cross:
            memory = torch.zeros_like(memory)
        causal = torch.nn.Transformer.generate_square_subsequent_mask(tgt.shape[1] - 1)
        out = model.decoder(
            y_in,
            memory,
            tgt_mask=causal,
            tgt_is_causal=True,
            tgt_key_padding_mask=tgt_pad[:, :-1],
            memory_key_padding_mask=src_pad,
        )  # (B, N_tgt − 1, D)
        logits = out @ E.T  # (B, N_tgt − 1, V)
        keep = ~tgt_pad[:, 1:]
        torch.nn.functional.cross_entropy(logits[keep], tgt[:, 1:][keep]).backward()
    stacks = {"encoder": model.encoder, "decoder": model.decoder} if cross else {}
    stacks |= {"decoder": model.decoder}  # without cross-attention the encoder gets no gradient
    return {
        part: np.array([layer.linear2.weight.grad.norm().item() for layer in stack.layers])
        for part, stack in stacks.items()
    }


# the lines measured: (norm, part, cross-attention); part "decoder" without cross-attention
# is the decoder as a causal stack of its own
LINES = (
    ("post", "encoder", True),
    ("post", "decoder", True),
    ("post", "decoder", False),
    ("pre", "encoder", True),
    ("pre", "decoder", True),
    ("pre", "decoder", False),
)


def line_name(part: str, cross: bool) -> str:
    """A line's key: encoder, decoder or decoder_alone (its cross-attention fed zeros)."""
    return part if cross else f"{part}_alone"


@dataclass(frozen=True)
class Config:
    seeds: int = 3  # seeds 0 … seeds − 1, averaged over
    D: int = 256

    def __post_init__(self) -> None:
        check_int("seeds", self.seeds, 1, 5)
        check_int("D", self.D, 32, 512)


@dataclass(frozen=True)
class Result:
    table: pd.DataFrame  # norm, line, seed, layer (1 … L), W_2
    spread: pd.DataFrame  # norm, line, layer, mean, std over seeds
    ratios: dict[str, dict[str, float]]  # norm → line → mean at layer L over layer 1

    def direction(self, norm: str, line: str) -> str:
        """The depth page's reading of a line's ratio: rises, same or falls."""
        return direction(self.ratios[norm][line])

    @property
    def cross_share(self) -> float:
        """The share of post-LN's decoder rise, on a log scale, that goes when its
        cross-attention is fed zeros: 1 − log(ratio alone) / log(ratio with); 0 where the
        decoder does not rise. What the measurement shows about (a)'s cause, and all it shows."""
        with_cross, alone = self.ratios["post"]["decoder"], self.ratios["post"]["decoder_alone"]
        if with_cross <= 1:
            return 0.0
        return 1.0 - math.log(alone) / math.log(with_cross)


def run(cfg: Config, progress: Callable[[float], None] | None = None) -> Result:
    """Every line of ``LINES`` for seeds 0 … seeds − 1: each layer's ‖∂ℒ/∂W_2‖."""
    rows, steps = [], [(s, n, c) for s in range(cfg.seeds) for n in ("post", "pre") for c in (1, 0)]
    for k, (seed, norm, cross) in enumerate(steps):
        for part, g in layer_gradients(norm, seed, cfg.D, bool(cross)).items():
            name = line_name(part, bool(cross))
            rows += [(norm, name, seed, i + 1, float(v)) for i, v in enumerate(g)]
        if progress:
            progress((k + 1) / len(steps))
    table = pd.DataFrame(rows, columns=["norm", "line", "seed", "layer", "W_2"])
    spread = table.groupby(["norm", "line", "layer"])["W_2"].agg(["mean", "std"])
    spread = spread.fillna(0.0).reset_index()
    ratios: dict[str, dict[str, float]] = {}
    for (norm, line), part in spread.groupby(["norm", "line"]):
        means = part.set_index("layer")["mean"]
        ratios.setdefault(norm, {})[line] = float(means[L] / means[1])
    return Result(table, spread, ratios)
