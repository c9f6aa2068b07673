"""Each tour exercise's right answer, computed apart from the tour: from the engine's public
API (words embedded, scores, blocks, positional tables), at the configuration the stop's
link opens, or from the chapter's law where the claim is one. Used by the lesson's and the
app's tests of the tour.

``values(claim, lang, seed, keys)`` gives each choice key a value whose largest is right
(a choice within the exercise's tie of it would be a second right answer);
``right(...)`` is that largest key, or for a law the answer the law gives.
"""

from __future__ import annotations

import math
import re

import numpy as np
import torch

from attnviz.block import TransformerBlock
from attnviz.lessons import tour
from attnviz.lessons.equivariance import permutation
from attnviz.positional import PositionalEncoding
from attnviz.scores import SCORES, make_score
from attnviz.text import embed, tokenize

WORD_FREE = set("、。,.!?")


def link(claim: str, lang: str, seed: int) -> dict[str, str]:
    return tour.stop(claim, lang, seed).query()


def _weights(p: dict[str, str], score: str) -> tuple[list[str], torch.Tensor]:
    """The sources and the first query's softmax weights under ``score``, as the link sets them."""
    tokens, queries = tokenize(p["text"]), tokenize(p["query"])
    queries = [w for w in queries if w not in WORD_FREE]
    D = int(p["D"])
    X, q = embed(tokens, D), embed(queries[:1], D)  # (N, D), (1, D)
    f = make_score(score, D, seed=int(p["seed"]), hidden=int(p.get("hidden", 16)))
    with torch.no_grad():
        return tokens, torch.softmax(f(X, q)[0].double(), -1)


def _per_word(tokens: list[str], a: torch.Tensor, total: bool = False) -> dict[str, float]:
    """Each word's tallest bar (punctuation is no answer), or with ``total`` each token's
    copies summed (a score's share on one token, punctuation included)."""
    out: dict[str, float] = {}
    for tok, w in zip(tokens, a.tolist(), strict=True):
        if total or tok not in WORD_FREE:
            out[tok] = out.get(tok, 0.0) + w if total else max(out.get(tok, 0.0), w)
    return out


def values(claim: str, lang: str, seed: int, trend=None) -> dict[str, float]:
    """Each answer key's measured value, the right one largest (exercises asked by argmax)."""
    p = link(claim, lang, seed)
    if claim in ("S1", "S4", "S5"):
        return _per_word(*_weights(p, p["score"]))
    if claim == "S2":
        return {n: max(_per_word(*_weights(p, n), total=True).values()) for n in SCORES}
    if claim == "S9":
        tokens = tokenize(p["text"])
        queries = [w for w in tokenize(p["query"]) if w not in WORD_FREE]
        D = int(p["D"])
        A = torch.softmax(embed(queries, D) @ embed(tokens, D).T / math.sqrt(D), -1)  # (M, N)
        return {w: float(A[m].max()) for m, w in enumerate(queries)}
    if claim == "S12":
        D, H = int(p["D"]), int(p["H"])
        X = PositionalEncoding(D, p["pe"], p["pe_mode"], seed=int(p["seed"]))(
            embed(tokenize(p["text"]), D)
        )
        block = TransformerBlock(D, H, norm=p["norm"], bias=False, seed=int(p["seed"]))
        with torch.no_grad():
            _, trace = block(X)
        A = trace.attn.weights[0]  # (H, N, N)
        return {str(h + 1): float(A[h].max()) for h in range(H)}
    if claim == "S16":
        N, D = int(p["N"]), int(p["D"])
        i = np.arange(N)[:, None]
        k = np.arange(D // 2)[None, :]
        E = np.zeros((N, D))
        E[:, 0::2], E[:, 1::2] = np.sin(i / 10000 ** (2 * k / D)), np.cos(i / 10000 ** (2 * k / D))
        G = E @ E.T
        row = _s16_row(claim, lang, seed)
        return {str(j + 1): float(G[row, j]) for j in range(N) if j != row}
    raise KeyError(claim)


def _s16_row(claim: str, lang: str, seed: int) -> int:
    """The position the question names: "p_{i}" in its text."""
    question = tour.ASKS[claim]
    cfg = question.config(lang, seed)
    ex = question.ask(cfg, question.run(cfg), lang, seed)
    return int(re.search(r"p_\{(\d+)\}", ex.question).group(1)) - 1


def equivariance_error(claim: str, lang: str, seed: int) -> float:
    """max |f(PX) − P f(X)| with f = block(PE(X)), built from the engine."""
    p = link(claim, lang, seed)
    tokens = tokenize(p["text"])
    D, H, s = int(p["D"]), int(p["H"]), int(p["seed"])
    perm = torch.from_numpy(permutation(p["perm"], len(tokens), seed=int(p["pseed"])))
    enc = PositionalEncoding(D, p["pe"], p["pe_mode"], seed=s)
    block = TransformerBlock(D, H, norm=p["norm"], seed=s)
    X = embed(tokens, D)
    with torch.no_grad():
        out, _ = block(enc(X))
        out_P, _ = block(enc(X[perm]))
    return float((out_P - out[perm]).abs().max())


def right(claim: str, lang: str, seed: int, trend=None) -> str:
    """The right answer's key for stop ``claim`` at example ``seed``."""
    p = link(claim, lang, seed)
    if claim in ("S1", "S2", "S4", "S5", "S9", "S12", "S16"):
        v = values(claim, lang, seed)
        if claim == "S16":  # among the positions the question offers
            keys = _offered(claim, lang, seed)
            v = {k: v[k] for k in keys}
        return max(v, key=v.get)
    if claim == "S3":
        return "2"  # Var(qᵀk) = D (S3): doubling D doubles it
    if claim == "S6":
        return "stay"  # softmax(Wq) never reads z: the weights stay with the positions
    if claim in ("S7", "S15"):
        error = equivariance_error(claim, lang, seed)
        return "small" if error < 1e-5 else ("medium" if error < 0.1 else "large")
    if claim == "S8":
        return "D"  # q̃ = Σ a_i z_i is one row of X wide
    if claim == "S10":
        return "ND'"
    if claim == "S11":
        return "MD"
    if claim == "S13":
        return "0,1"  # LN: each token's mean 0, variance 1 before γ, β
    if claim == "S14":
        mean = trend.table.groupby(["norm", "L"])["W_2"].mean()
        ratio = {n: mean[n, 24] / mean[n, 3] for n in ("post", "pre")}
        kept = [n for n, r in ratio.items() if 1 / 1.5 <= r <= 1.5]
        return kept[0] if len(kept) == 1 else ("both" if kept else "neither")
    raise KeyError(f"{claim} {p}")


def _offered(claim: str, lang: str, seed: int) -> list[str]:
    question = tour.ASKS[claim]
    cfg = question.config(lang, seed)
    return [c.key for c in question.ask(cfg, question.run(cfg), lang, seed).choices]


def label(claim: str, lang: str, seed: int, key: str, result=None) -> str:
    """The label of answer ``key`` as the exercise shows it (for checking the app's text)."""
    question = tour.ASKS[claim]
    cfg = question.config(lang, seed)
    r = result if result is not None else question.run(cfg)
    return question.ask(cfg, r, lang, seed).label(key)
