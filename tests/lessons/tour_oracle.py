"""Each tour exercise's right answer, computed apart from the tour: from the engine's public
API (words embedded, scores, attention, blocks, positional tables) and torch, at the
configuration the stop's link opens, for the kind of question the example asks.

``right(claim, lang, seed, ex)`` measures what the question asks about and returns the key
of the choice that names the outcome (a choice whose outcome did not happen is wrong), or,
for a question answered by a number, the number the right choice must show.
"""

from __future__ import annotations

import math

import numpy as np
import torch

from attnviz import MultiHeadAttention, TransformerBlock
from attnviz.attend import scaled_dot_product_attention
from attnviz.lessons import depth_gradients, tour
from attnviz.lessons.equivariance import permutation
from attnviz.positional import PositionalEncoding
from attnviz.scores import make_score
from attnviz.text import embed, tokenize

WORD_FREE = set("、。,.!?")
CLOSE = 1e-6


def link(claim: str, lang: str, seed: int) -> dict[str, str]:
    return tour.stop(claim, lang, seed).query()


def _sources(p: dict[str, str]) -> tuple[list[str], torch.Tensor, list[str], torch.Tensor]:
    """Tokens, X (N, D), query words and Q (M, D), float64, as the scoring link sets them."""
    tokens = tokenize(p["text"])
    queries = [w for w in tokenize(p["query"]) if w not in WORD_FREE]
    D = int(p["D"])
    return tokens, embed(tokens, D).double(), queries, embed(queries, D).double()


def _score(p: dict[str, str], name: str | None = None):
    D = int(p["D"])
    f = make_score(name or p["score"], D, seed=int(p["seed"]), hidden=int(p.get("hidden", 16)))
    return f.double()


def _scores(p, name=None) -> torch.Tensor:
    _tokens, X, _, Q = _sources(p)
    with torch.no_grad():
        return _score(p, name)(X, Q[:1])[0]  # (N,) r(z_i, q_1)


def _soft(s: torch.Tensor) -> torch.Tensor:
    return torch.softmax(s, -1)


def _word(tokens: list[str], i: int) -> str:
    return tokens[int(i)]


def scoring_answer(claim: str, kind: str, p: dict[str, str], ex) -> str | float:
    tokens, X, _queries, Q = _sources(p)
    N, D = X.shape
    if claim == "S1":
        s = _scores(p)
        a = _soft(s)
        if kind == "shift":
            c = float(next(w for w in ex.question.replace("=", " ").split() if w.isdigit()))
            moved = _soft(s + c)
            if (moved - a).abs().max() < CLOSE:
                return "same"
            return "plus" if torch.allclose(moved - a, torch.full_like(a, c)) else "sharper"
        if kind == "sum":
            total = float(a.sum())
            return "one" if abs(total - 1) < CLOSE else ("N" if abs(total - N) < CLOSE else "more")
        if kind == "double":
            i = int(s.argmax())
            b = _soft(2 * s)[i]
            return "rises" if b > a[i] + CLOSE else ("falls" if b < a[i] - CLOSE else "same")
        i = int(s.argmin())
        if a[i] <= 0:
            return "zero" if a[i] == 0 else "negative"
        return "positive" if a[i] <= a.min() + CLOSE else "largest"
    if claim == "S2":
        dots = _scores(p, "dot")
        scaled = _scores(p, "scaled_dot")
        if kind == "compute":
            i = int(dots.abs().argmax())
            return float(scaled[i])  # the number the right choice shows
        if kind == "order":
            return _word(tokens, _soft(scaled).argmax())
        i = int(dots.argmax())
        a, b = _soft(dots)[i], _soft(scaled)[i]
        return "lower" if 1 / N < b < a else ("higher" if b > a else "same")
    if claim == "S4":
        f = _score(p, "bilinear")
        with torch.no_grad():
            if kind == "identity":
                f.W.copy_(torch.eye(D))
                same = torch.allclose(f(X, Q[:1])[0], _scores(p, "scaled_dot"), atol=1e-9)
                return "scaled_dot" if same else "dot"
            if kind == "zero":
                f.W.zero_()
                a = _soft(f(X, Q[:1])[0])
                return "uniform" if torch.allclose(a, torch.full_like(a, 1 / N)) else "same"
            if kind == "negate":
                f.W.neg_()
                return _word(tokens, _soft(f(X, Q[:1])[0]).argmax())
            return float(sum(t.numel() for t in f.parameters()))  # the number shown
    if claim == "S5":
        f = _score(p, "mlp")
        if kind == "input":
            return float(f.W_1z.shape[0] + f.W_1q.shape[0])  # the width of [z; q]
        if kind == "output":
            with torch.no_grad():
                out = f(X, Q[:1])
            return "one" if tuple(out.shape) == (1, N) else "vector"
        # a random MLP's favourite need not be the dot product's: over a few seeds they differ
        tops = []
        for s in range(8):
            g = make_score("mlp", D, seed=s, hidden=int(p.get("hidden", 16))).double()
            with torch.no_grad():
                tops.append(int(g(X, Q[:1])[0].argmax()) == int(_scores(p, "dot").argmax()))
        return "no" if not all(tops) else "always"
    if claim == "S6":
        if kind == "shape":
            f = _score(p)
            return (N, D) if tuple(f.W[:N].shape) == (N, D) else tuple(f.W.shape)
        perm = torch.randperm(N, generator=torch.Generator().manual_seed(int(p["shuffle"])))
        f = _score(p)
        with torch.no_grad():
            a, b = _soft(f(X, Q[:1])[0]), _soft(f(X[perm], Q[:1])[0])
        follows = float((b - a[perm]).abs().max())
        stays = float((b - a).abs().max())
        return "stay" if stays < CLOSE else ("follow" if follows < CLOSE else "neither")
    raise KeyError(claim)


def output_answer(claim: str, kind: str, p: dict[str, str], ex) -> str | float | tuple:
    _tokens, X, queries, Q = _sources(p)
    _N, _D = X.shape
    M = len(queries)
    out, A = scaled_dot_product_attention(Q, X, X)  # (M, D), (M, N)
    if claim == "S8":
        if kind == "width":
            return float(out[0].numel())
        if kind == "weights":
            return float(A[0].numel())
        inside = bool(
            ((out[0] >= X.min(0).values - 1e-9) & (out[0] <= X.max(0).values + 1e-9)).all()
        )
        return "inside" if inside else "outside"
    if claim == "S9":
        if kind == "alone":
            _, a1 = scaled_dot_product_attention(Q[:1], X, X)
            return "same" if (a1[0] - A[0]).abs().max() < CLOSE else "flatter"
        if kind == "sums":
            return float(A.sum())
        swap = torch.tensor([1, 0, *range(2, M)])
        _, A2 = scaled_dot_product_attention(Q[swap], X, X)
        if torch.allclose(A2, A[swap]):
            return "rows"
        return "none" if torch.allclose(A2, A) else "all"
    if claim == "S11":
        if kind == "output":
            return tuple(out.shape)
        if kind == "weights":
            return tuple(A.shape)
        out2, A2 = scaled_dot_product_attention(Q, X, 2 * X)
        output, weights = torch.allclose(out2, 2 * out), torch.allclose(A2, A)
        return {(True, True): "output", (True, False): "both", (False, True): "neither"}.get(
            (output, weights), "weights"
        )
    raise KeyError(claim)


def _mha(p: dict[str, str]) -> tuple[MultiHeadAttention, torch.Tensor]:
    """The multi-head page's first block's attention over PE(X), as the link sets it."""
    D, H = int(p["D"]), int(p["H"])
    X = PositionalEncoding(D, p["pe"], p["pe_mode"], seed=int(p["seed"]))(
        embed(tokenize(p["text"]), D)
    )
    block = TransformerBlock(D, H, norm=p["norm"], bias=False, seed=int(p["seed"]))
    return block.attn, X


def block_answer(claim: str, kind: str, p: dict[str, str], ex) -> str | float | tuple:
    if claim in ("S10", "S12"):
        mha, X = _mha(p)
        N, D, H, Dp = X.shape[-2], mha.D, mha.H, mha.d_head
        if claim == "S10":
            if kind == "shape":
                W_Q = mha.W_QKV[:, 0, 0]  # (D, D′): head 1's W_h^Q
                return tuple((X @ W_Q).shape)
            if kind == "from_x":
                return "all"  # the law: Q = XW^Q, K = XW^K, V = XW^V (S10)
            s = float(p["qk"])
            with torch.no_grad():
                _, t1 = mha(X)
                mha.W_QKV[:, :2] /= s  # back to s = 1: the link's block holds s·W^Q, s·W^K
                _, t0 = mha(X)
            ratio = float((t1.scores / t0.scores).median())
            return ratio  # the factor the right choice shows
        if kind == "width":
            return float(Dp)
        if kind == "divisor":
            with torch.no_grad():
                _, tr = mha(X)
                qkv = torch.einsum("nd,dthe->thne", X.reshape(-1, D), mha.W_QKV)
            raw = qkv[0] @ qkv[1].transpose(-1, -2)  # (H, N, N) q_iᵀk_j per head
            return float((raw / tr.scores[0]).median())  # the divisor: √D′
        return tuple(mha.W_O.reshape(H * Dp, D).shape)
    if claim == "S13":
        D, H = int(p["D"]), int(p["H"])
        tokens = tokenize(p["text"])
        block = TransformerBlock(D, H, D * int(p["ff"]), norm="post", seed=int(p["seed"]))
        if kind == "gamma":
            return float(block.ln_1.gamma.numel())
        X = embed(tokens, D)
        with torch.no_grad():
            _, trace = block(X)
        sum_1 = X + trace.attn_out[0]  # the residual sum, before any LN
        if kind == "where":
            ln = torch.nn.functional.layer_norm(sum_1, (D,), block.ln_1.gamma, block.ln_1.beta)
            return "after" if torch.allclose(ln, trace.resid_mid[0], atol=1e-5) else "before"
        hat = torch.nn.functional.layer_norm(sum_1, (D,))[int(p["token"]) - 1]  # no γ, β
        mean, var = float(hat.mean()), float(hat.var(unbiased=False))
        targets = {"0_1": (0, 1), "0_D": (0, D), "1_0": (1, 0), "1_1": (1, 1)}
        return min(targets, key=lambda k: math.hypot(mean - targets[k][0], var - targets[k][1]))
    if claim == "S16":
        N, D = int(p["N"]), int(p["D"])
        i = np.arange(N)[:, None]
        k = np.arange(D // 2)[None, :]
        E = np.zeros((N, D))
        E[:, 0::2], E[:, 1::2] = np.sin(i / 10000 ** (2 * k / D)), np.cos(i / 10000 ** (2 * k / D))
        G = E @ E.T
        if kind == "distance":
            bands = [np.ptp(np.diag(G, d)) for d in range(N)]
            return "gap" if max(bands) < 1e-9 else "i"
        if kind == "norm":
            return float(np.diag(G).mean())
        return "differ" if not np.allclose(G, G[0, 0]) else "equal"
    raise KeyError(claim)


def _block_out(p: dict[str, str], perm: torch.Tensor, pe: str, H: int, wide: int = 1) -> tuple:
    tokens = tokenize(p["text"])
    D, s = wide * int(p["D"]), int(p["seed"])
    enc = PositionalEncoding(D, pe, p["pe_mode"], seed=s)
    block = TransformerBlock(D, H, norm=p["norm"], seed=s)
    X = embed(tokens, D)
    with torch.no_grad():
        out, t = block(enc(X))
        out_P, t_P = block(enc(X[perm]))
    return out[0] if out.dim() == 3 else out, out_P[0] if out_P.dim() == 3 else out_P, t, t_P


def law_answer(claim: str, kind: str, p: dict[str, str], ex, result=None) -> str:
    if claim == "S3":
        D1 = 256
        D2 = {"x2": 512, "x4": 1024, "half": 128, "scaled": 1024}[kind]
        g = torch.Generator().manual_seed(7)
        var = {}
        for D in (D1, D2):
            q, k = (
                torch.randn(4000, D, generator=g, dtype=torch.float64),
                torch.randn(4000, D, generator=g, dtype=torch.float64),
            )
            s = (q * k).sum(-1) / (math.sqrt(D) if kind == "scaled" else 1)
            var[D] = float(s.var())
        ratio = var[D2] / var[D1]
        factors = {"half": 0.5, "1": 1.0, "2": 2.0, "4": 4.0}
        return min(factors, key=lambda f: abs(math.log(ratio / factors[f])))
    tokens = tokenize(p["text"])
    perm = torch.from_numpy(permutation(p["perm"], len(tokens), seed=int(p["pseed"])))
    H = int(p["H"])
    if kind == "restore":
        errors = {
            "add": _block_out(p, perm, "sinusoidal", H),
            "heads": _block_out(p, perm, "none", 2 * H),
            "root": _block_out(p, perm, "none", H),  # the block divides by √D′ already
            "wider": _block_out(p, perm, "none", H, wide=2),
        }
        broken = [
            k for k, (o, oP, _, _) in errors.items() if float((oP - o[perm]).abs().max()) > 1e-5
        ]
        return broken[0] if len(broken) == 1 else "none"
    out, out_P, t, t_P = _block_out(p, perm, p["pe"], H)
    if kind == "law":
        candidates = {"Pf": out[perm], "f": out, "PTf": out[torch.argsort(perm)]}
        errs = {k: float((out_P - v).abs().max()) for k, v in candidates.items()}
        best = min(errs, key=errs.get)
        return best if errs[best] < 1e-5 else "PfPT"
    if kind == "maps":
        A, A_P = t.attn.weights[0, 0], t_P.attn.weights[0, 0]
        candidates = {"PAPT": A[perm][:, perm], "A": A, "PA": A[perm], "APT": A[:, perm]}
        errs = {k: float((A_P - v).abs().max()) for k, v in candidates.items()}
        return min(errs, key=errs.get)
    error = float((out_P - out[perm]).abs().max())
    return "small" if error < 1e-5 else ("medium" if error < 0.1 else "large")


def depth_answer(kind: str, trend) -> str:
    if kind == "which":
        return "pre"  # the chapter's S14; the gradients below must agree with it
    mean = trend.table.groupby(["norm", "L"])["W_2"].mean()
    lo, hi = depth_gradients.RATIO_DEPTHS
    return depth_gradients.direction(float(mean[kind, hi] / mean[kind, lo]))


SCORING = ("S1", "S2", "S4", "S5", "S6")
OUTPUT = ("S8", "S9", "S11")
BLOCK = ("S10", "S12", "S13", "S16")
LAW = ("S3", "S7", "S15")


def right(claim: str, lang: str, seed: int, ex, result=None):
    """The right answer to ``ex`` (stop ``claim``, example ``seed``), measured apart."""
    p = link(claim, lang, seed)
    if claim in SCORING:
        return scoring_answer(claim, ex.kind, p, ex)
    if claim in OUTPUT:
        return output_answer(claim, ex.kind, p, ex)
    if claim in BLOCK:
        return block_answer(claim, ex.kind, p, ex)
    if claim in LAW:
        return law_answer(claim, ex.kind, p, ex)
    if claim == "S14":
        return depth_answer(ex.kind, result)
    raise KeyError(claim)


def label(claim: str, lang: str, seed: int, key: str, result=None) -> str:
    """The label of answer ``key`` as the exercise shows it (for checking the app's text)."""
    question = tour.ASKS[claim]
    cfg = question.config(lang, seed)
    r = result if result is not None else question.run(cfg)
    return question.ask(cfg, r, lang, seed).label(key)
