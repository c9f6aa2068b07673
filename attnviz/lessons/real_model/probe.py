"""One weight of the real model followed through its formula, and a head's query–key space
(on the sentence alone, or pooled with a few more): what hangs on a cell of the real-model
page's map, computed again from the layer's input that ``forward.encode`` kept.
"""

from __future__ import annotations

from dataclasses import dataclass

from ... import formulas, sinks, worked
from ...errors import InputError
from ...limits import check_choice, check_int
from ...qkspace import CENTRES, QKSpace, qk_space, qk_space_pooled
from ...stepthrough import WeightSteps, step_through
from ..multihead_probe import MAX_TOP_K
from .forward import MODEL, attention, check_model, check_text, encode, size, tokenize
from .sinks import HIDDEN

MAX_POOLED_LINES = 8  # sentences pooled with the main one in the query–key picture
MAX_POOLED_TOKENS = 512  # their WordPiece tokens together, [CLS] and [SEP] included
POOLED = (  # sentences pooled by default: English input, the same in both languages
    "The cat sat on the mat.",
    "Attention is all you need, they said.",
    "She gave him the book because he asked for it.",
)


def _check_place(
    text: str, layer: int, head: int, positions: dict[str, int], name: str = MODEL
) -> None:
    check_model(name)
    check_text(text, name)
    L, H = size(name)
    check_int("layer", layer, 0, L - 1)
    check_int("head", head, 0, H - 1)
    N = len(encode(text, name)[0].tokens)
    for name, value in positions.items():
        check_int(name, value, 0, N - 1)


@dataclass(frozen=True)
class Pick:
    """One weight a_ij of head ``head`` in layer ``layer`` (0-based) on the text."""

    text: str
    layer: int = 0
    head: int = 0
    i: int = 0
    j: int = 0
    hide_special: bool = False  # the map shows ã_ij, a_ij renormalised without the candidates
    model: str = MODEL

    def __post_init__(self) -> None:
        _check_place(self.text, self.layer, self.head, {"i": self.i, "j": self.j}, self.model)


@dataclass(frozen=True)
class Steps:
    steps: WeightSteps  # every step from x_i to out_i, float64, 0-based indices
    formulas: list[str]  # the six lines of weight_steps with their numbers, from 1
    renormalised: str | None  # ã_ij's line when [CLS]/[SEP] are hidden and i, j are shown
    cell: float  # the value of the map's cell (i, j): a_ij, or ã_ij when hidden


def follow(pick: Pick) -> Steps:
    """a_ij followed from x_i to out_i (biases included), checked against the layer's trace."""
    x, mha, trace, mask = attention(pick.text, pick.layer, pick.model)
    steps = step_through(trace, mha, h=pick.head, i=pick.i, j=pick.j, x=x, mask=mask)
    lines = worked.weight_steps(steps)
    enc = encode(pick.text, pick.model)[0]
    keep = sinks.kept_positions(enc.tokens, HIDDEN, enc.roles or None)
    if pick.hide_special and pick.i in keep and pick.j in keep:
        kept_sum = float(steps.a_row[keep].sum())
        cell = steps.a_ij / kept_sum if kept_sum > 0 else 0.0
        return Steps(steps, lines, worked.renormalised(steps, kept_sum, cell, start=1), cell)
    return Steps(steps, lines, None, steps.a_ij)


def check_pooled(lines: tuple[str, ...], name: str = MODEL) -> None:
    """At most ``MAX_POOLED_LINES`` sentences of ``MAX_POOLED_TOKENS`` tokens together."""
    if len(lines) > MAX_POOLED_LINES:
        raise InputError(
            f"at most {MAX_POOLED_LINES} sentences can be pooled, got {len(lines)}",
            "pooled_lines",
            hi=MAX_POOLED_LINES,
            value=len(lines),
        )
    for line in lines:
        check_text(line, name)
    tokens = sum(len(tokenize(line, name)[0]) for line in lines)
    if tokens > MAX_POOLED_TOKENS:
        raise InputError(
            f"the pooled sentences may hold at most {MAX_POOLED_TOKENS} tokens, got {tokens}",
            "pooled_tokens",
            hi=MAX_POOLED_TOKENS,
            value=tokens,
        )


@dataclass(frozen=True)
class Probe:
    """Head ``head`` of layer ``layer``: its query–key space on the text, or pooled with
    the sentences ``more``; the top-k keys of ``query`` (a position in the text, 0-based)."""

    text: str
    layer: int = 0
    head: int = 0
    query: int = 0
    k: int = 5
    centre: str = "each"
    more: tuple[str, ...] = ()
    model: str = MODEL

    def __post_init__(self) -> None:
        _check_place(self.text, self.layer, self.head, {"query": self.query}, self.model)
        check_int("k", self.k, 1, MAX_TOP_K)
        check_choice("centre", self.centre, CENTRES)
        check_pooled(self.more, self.model)


@dataclass(frozen=True)
class QK:
    space: QKSpace  # the 2D points (sentences stacked), axes, variance shares, top keys
    tokens: list[str]  # the token of every stacked row
    formulas: list[str]
    score: str  # the head's score function: what the picture's points are


def qk(probe: Probe) -> QK:
    """One PCA of the head's queries and keys: of the text alone, or of the text (sentence 1)
    and the sentences ``more`` together, with one mean per set over all of them."""
    texts = (probe.text, *probe.more)
    parts = [attention(text, probe.layer, probe.model) for text in texts]
    mha = parts[0][1]
    kw = dict(h=probe.head, query=probe.query, k=probe.k, centre=probe.centre)
    if probe.more:
        space = qk_space_pooled([trace for _, _, trace, _ in parts], mha, **kw)
    else:
        space = qk_space(parts[0][2], mha, **kw)
    tokens = [tok for text in texts for tok in tokenize(text, probe.model)[0]]
    lines = formulas.qk_space(mha.score_name, probe.centre)
    return QK(space, tokens, lines, mha.score_name)
