"""The tour's exercises on what the scoring lesson's attention puts out (S8, S9, S11): q̃ and
its weights, many queries at once with one softmax per row, and the operator 𝒜_D's shapes
and its linearity in V. Each reads ``scoring.run(cfg)`` at the configuration its link opens
(``scoring_asks.config``)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ...charts import scoring as charts
from ...i18n import t
from ...text import embed, token_labels
from .exercise import Exercise, NoQuestion, choices_of, exercise, kind, numbers, shaped, tr
from .scoring_asks import bars, config, width

# ---- S8: one query: N weights, and q̃ = Σ a_i z_i, as wide as one z_i
S8_KINDS = ("width", "weights", "range")
S8_WIDTHS = (16, 32, 64)


def s8_config(lang: str, seed: int):
    return config(lang, seed, "scaled_dot", D=width(seed, S8_WIDTHS, len(S8_KINDS)))


def counts(N: int, D: int, right: str) -> list:
    sizes = {"N": N, "D": D, "ND": N * D, "1": 1}
    labels = {"N": f"{N} (= N)", "D": f"{D} (= D)", "ND": f"{N * D} (= N × D)", "1": "1"}
    return numbers(
        (right, sizes[right], labels[right]),
        *((k, n, labels[k]) for k, n in sizes.items() if k != right),
    )


def spans(cfg, r) -> tuple[np.ndarray, np.ndarray]:
    """Per component d, the smallest and largest z_i[d] over the sources."""
    X = embed(r.tokens, cfg.D).double().numpy()  # (N, D), the lesson's own word vectors
    return X.min(0), X.max(0)


def s8(cfg, r, lang, seed) -> Exercise:
    k = kind(seed, S8_KINDS)
    N, D = len(r.tokens), r.attended.shape[0]
    if k in ("width", "weights"):
        right = "D" if k == "width" else "N"
        return exercise(
            "S8",
            seed,
            k,
            tr(f"s8_ask_{k}", lang, N=N, D=D),
            counts(N, D, right),
            right,
            tr(f"s8_why_{k}", lang, N=N, D=D, k=min(D, 32)),
        )
    lo, hi = spans(cfg, r)
    q = r.attended.astype(np.float64)
    inside = bool(np.all((q >= lo - 1e-6) & (q <= hi + 1e-6)))
    if not inside:  # a weighted average cannot leave the range: a bug, not an example
        raise AssertionError("q̃ left the sources' range")
    d = int(np.argmax(hi - lo))
    keys = ("inside", "outside", "equal", "top")
    return exercise(
        "S8",
        seed,
        k,
        tr("s8_ask_range", lang, N=N, D=D),
        choices_of("s8_range", keys, lang),
        "inside",
        tr("s8_why_range", lang, d=d + 1, v=q[d], lo=lo[d], hi=hi[d], k=min(D, 32)),
    )


def s8_figure(cfg, r, lang, seed) -> go.Figure:
    if kind(seed, S8_KINDS) == "weights":
        title = f"{t('scoring.weights_title', lang)} · q = {r.queries[0]}"
        return charts.weights_bar(r.weights, r.tokens, title=title)
    k = min(cfg.D, 32)
    fig = charts.weights_bar(
        r.attended[:k],
        [str(j) for j in range(1, k + 1)],
        title=t("scoring.attended_title", lang, k=k, D=cfg.D),
        numbered=False,
    )
    if kind(seed, S8_KINDS) == "range":
        lo, hi = spans(cfg, r)
        x = np.arange(k)
        for name, y in ((tr("fig_min", lang), lo[:k]), (tr("fig_max", lang), hi[:k])):
            fig.add_trace(
                go.Scatter(
                    x=x,
                    y=y,
                    mode="markers",
                    name=name,
                    marker_symbol="line-ew-open",
                    marker_size=14,
                )
            )
    return fig.update_xaxes(title=t("scoring.component", lang))


# ---- S9: M queries at once, one softmax per row of A
S9_KINDS = ("alone", "sums", "swap")


def s9_config(lang: str, seed: int):
    return config(lang, seed, "scaled_dot", D=64)


def s9(cfg, r, lang, seed) -> Exercise:
    k = kind(seed, S9_KINDS)
    M, N = len(r.queries), len(r.tokens)
    if M < 2:
        raise NoQuestion("one query")
    given = tr(
        "given_queries",
        lang,
        text=" ".join(r.tokens),
        queries="、".join(r.queries) if lang == "ja" else ", ".join(r.queries),
    )
    if k == "alone":
        gap = float(np.abs(r.many[0].astype(np.float64) - r.weights).max())
        keys = ("same", "smaller", "flatter", "share")
        fields = dict(q=r.queries[0], M=M)
        return exercise(
            "S9",
            seed,
            k,
            tr("s9_ask_alone", lang, **fields),
            choices_of("s9_alone", keys, lang, **fields),
            "same",
            tr("s9_why_alone", lang, **fields, d=gap),
            given,
        )
    if k == "sums":
        total = float(r.many.sum())
        choices = numbers(
            ("M", M, f"{M} (= M)"),
            ("1", 1, "1"),
            ("N", N, f"{N} (= N)"),
            ("MN", M * N, f"{M * N} (= M × N)"),
        )
        return exercise(
            "S9",
            seed,
            k,
            tr("s9_ask_sums", lang, M=M, N=N),
            choices,
            "M",
            tr("s9_why_sums", lang, M=M, N=N, total=total),
            given,
        )
    keys = ("rows", "all", "none", "columns")
    fields = dict(a=r.queries[0], b=r.queries[1])
    return exercise(
        "S9",
        seed,
        k,
        tr("s9_ask_swap", lang, **fields),
        choices_of("s9_swap", keys, lang),
        "rows",
        tr("s9_why_swap", lang, **fields),
        given,
    )


def s9_figure(cfg, r, lang, seed) -> go.Figure:
    if kind(seed, S9_KINDS) == "alone":
        series = {
            tr("fig_alone", lang): r.weights,
            tr("fig_together", lang, M=len(r.queries)): r.many[0],
        }
        return bars(r, series, f"{t('scoring.weights_title', lang)} · q = {r.queries[0]}", lang)
    return weights_map(r, lang)


def weights_map(r, lang: str) -> go.Figure:
    """A = softmax(Q Xᵀ / √D): a row per query, a column per source."""
    return charts.matrix(
        r.many,
        token_labels(r.tokens),
        token_labels(r.queries),
        title=t("scoring.many_weights", lang),
        x_title=t("scoring.source_axis", lang),
        y_title=t("scoring.query_axis", lang),
    )


# ---- S11: the operator 𝒜_D(Q, K, V) = softmax(QKᵀ/√D) V, with Q̃ = 𝒜_D(Q, X, X)
S11_KINDS = ("output", "weights", "values")
S11_WIDTHS = (16, 32, 64)


def s11_config(lang: str, seed: int):
    return config(lang, seed, "scaled_dot", D=width(seed, S11_WIDTHS, len(S11_KINDS)))


def s11(cfg, r, lang, seed) -> Exercise:
    k = kind(seed, S11_KINDS)
    M, D = r.many_attended.shape
    N = len(r.tokens)
    fields = dict(M=M, N=N, D=D, k=min(D, 32))
    if k in ("output", "weights"):
        shapes = {"MD": (M, D), "MN": (M, N), "ND": (N, D), "DD": (D, D), "NN": (N, N)}
        right = "MD" if k == "output" else "MN"
        order = [right, *(s for s in shapes if s != right)][:4]
        return exercise(
            "S11",
            seed,
            k,
            tr(f"s11_ask_{k}", lang, **fields),
            shaped(right, {s: shapes[s] for s in order}),
            right,
            tr(f"s11_why_{k}", lang, **fields),
        )
    keys = ("output", "weights", "both", "neither")
    return exercise(
        "S11",
        seed,
        k,
        tr("s11_ask_values", lang, **fields),
        choices_of("s11_values", keys, lang),
        "output",
        tr("s11_why_values", lang, **fields),
    )


def s11_figure(cfg, r, lang, seed) -> go.Figure:
    if kind(seed, S11_KINDS) == "weights":
        return weights_map(r, lang)
    k = min(cfg.D, 32)
    return charts.matrix(
        r.many_attended[:, :k],
        [str(j) for j in range(1, k + 1)],
        token_labels(r.queries),
        title=t("scoring.many_attended", lang, k=k, D=cfg.D),
        x_title=t("scoring.component", lang),
        zmin=None,
        zmax=None,
        colorscale="RdBu_r",
    )
