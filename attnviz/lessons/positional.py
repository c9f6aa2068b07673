"""Positional encodings (S15, S16): the table E = [p_1, …, p_N]ᵀ, similarity between
positions, and the same word at two positions with and without p_i.

E is the chapter's table of p_i (P names a permutation elsewhere). With the engine's
0-based rows, E[i, 2k] = sin(i / 10000^{2k/D}) and E[i, 2k+1] = cos(i / 10000^{2k/D});
the page numbers positions and components from 1 (formulas.SINUSOIDAL). The Gram matrix
G[i, j] = p_iᵀ p_j (G, not S: S_h is a head's scores). Without p_i a repeated word has
identical attention rows (S7); with them one head scores (x_i + p_i)ᵀ W^Q W^Kᵀ (x_j + p_j) / √D,
of which p_iᵀ p_j is one term. The two rows' difference Δ_k = a_jk − a_ik is drawn on its own
scale. At the head's random initialisation (entries U(±1/√D)) every score is small and every
row near uniform, so W^Q and W^K are multiplied by s (scores × s²), as a trained head's are
larger.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from .. import formulas
from ..attention import MultiHeadAttention
from ..limits import MAX_D, MAX_SEED, check_choice, check_float, check_int
from ..positional import KINDS, MODES, PositionalEncoding
from ..text import embed, tokenize
from .multihead import MAX_QK_SCALE, MIN_QK_SCALE
from .training_race.model import NORMS
from .training_race.results import LearnedPositions

TABLES = ("sinusoidal", "learned")  # tables drawn from the page's own N, D and seed
RACE_TABLES = tuple(f"race_{norm}" for norm in NORMS)  # a training race's learned tables
MAX_POSITIONS = 256  # N and D of the tables drawn
SAME_WORD_D = 64  # width of the word vectors in the same-word comparison
# The same-word head the page opens with: at s = 3 and seed 5 both languages' example
# sentences give rows that differ by 0.19–0.34 with positions (tests/lessons/test_positional.py)
SAME_WORD_SEED, SAME_WORD_SCALE = 5, 3.0


def learned(kind: str) -> bool:
    """The table is a parameter: one drawn at initialisation, or a race's trained one."""
    return kind in RACE_TABLES or KINDS[kind].learned


def note(kind: str) -> str:
    """The key of the note under table ``kind``: how it was made."""
    return "positional.note_race" if kind in RACE_TABLES else f"positional.note_{kind}"


def kinds(race: LearnedPositions | None) -> tuple[str, ...]:
    """The tables that can be shown: the race's too once the session has run one."""
    return TABLES + (RACE_TABLES if race is not None else ())


@dataclass(frozen=True)
class Config:
    kind: str = "sinusoidal"  # one of kinds(race)
    N: int = 50  # positions
    D: int = 64  # width of p_i
    seed: int = 0  # of a learned table at initialisation (the same-word head has its own)
    cosine: bool = False  # similarity of unit-length p_i
    d_pos: int = 64  # width of p_i when concatenated to x_i ∈ ℝ^D
    race: LearnedPositions | None = None  # the session's latest training race

    def __post_init__(self) -> None:
        check_choice("positional encoding", self.kind, kinds(self.race))
        check_int("N", self.N, 1, MAX_POSITIONS)
        check_int("D", self.D, 1, MAX_POSITIONS)
        check_int("seed", self.seed, 0, MAX_SEED)
        check_int("d_pos", self.d_pos, 1, MAX_D)


@dataclass(frozen=True)
class Widths:
    add: int  # model width with p_i added: D
    concat: int  # with p_i concatenated: D + d_pos
    formulas: list[str]


@dataclass(frozen=True)
class Result:
    E: np.ndarray  # (N, D) p_1 … p_N as rows (the race's (n, D) for its tables)
    G: np.ndarray  # (N, N) Gram matrix of the positions, G_ij = p_iᵀp_j
    widths: Widths
    formulas: list[str]  # LaTeX of the table and similarity shown


def table(kind: str, N: int, D: int, seed: int) -> np.ndarray:
    """The (N, D) matrix of p_1 … p_N for ``kind`` (sinusoidal, or learned at initialisation)."""
    with torch.no_grad():
        return PositionalEncoding(D, kind, seed=seed).table(N).float().numpy().copy()


def similarity(E: np.ndarray, cosine: bool = False) -> np.ndarray:
    """G = E Eᵀ (N, N); with ``cosine`` each row of E is first scaled to unit length."""
    E = np.asarray(E, dtype=np.float64)
    if cosine:
        E = E / np.maximum(np.linalg.norm(E, axis=1, keepdims=True), 1e-12)
    return (E @ E.T).astype(np.float32)


def widths(D: int, d_pos: int) -> Widths:
    """Model width after encoding: added keeps D, concatenated gives D + d_pos."""
    add, concat = (
        PositionalEncoding(D, "sinusoidal", mode, d_pos=d_pos, n_max=1).out_dim for mode in MODES
    )
    return Widths(add, concat, [formulas.add_concat("d_p")])


def run(cfg: Config) -> Result:
    """The table of the chosen kind, its similarity matrix, and the widths of both modes."""
    if cfg.kind in RACE_TABLES:
        E = cfg.race.tables[cfg.kind.removeprefix("race_")]
    else:
        E = table(cfg.kind, cfg.N, cfg.D, cfg.seed)
    formula = KINDS[cfg.kind].formula if cfg.kind in TABLES else None  # a race's is learned
    shown = [formula] if formula else []
    shown.append(formulas.position_similarity(cfg.cosine))
    return Result(E, similarity(E, cfg.cosine), widths(cfg.D, cfg.d_pos), shown)


@dataclass(frozen=True)
class SameWord:
    text: str
    mode: str = "add"  # how p_i meets x_i
    seed: int = SAME_WORD_SEED  # of the attention head's weights
    qk_scale: float = SAME_WORD_SCALE  # s in W^Q, W^K ← s·W^Q, s·W^K: scores × s²

    def __post_init__(self) -> None:
        check_choice("positional encoding mode", self.mode, MODES)
        check_int("seed", self.seed, 0, MAX_SEED)
        check_float("qk_scale", self.qk_scale, MIN_QK_SCALE, MAX_QK_SCALE)


@dataclass(frozen=True)
class TwoPositions:
    tokens: list[str]
    i: int  # first position of the repeated word (0-based)
    j: int  # second position (0-based)
    rows: dict[str, np.ndarray]  # {"none" | "sinusoidal": (2, N) attention rows of i and j}
    difference: dict[str, np.ndarray]  # {pe: (N,) Δ_k = a_jk − a_ik}
    diff: dict[str, float]  # largest |Δ_k| without and with PE
    table: pd.DataFrame  # every row, one column "<pe>@<position from 1>", one entry per key
    formulas: list[str]  # LaTeX of how p_i enters the head, what it scores, Δ

    @property
    def uniform(self) -> float:
        """1/N, the weight of every key in a uniform row: the scale Δ is read against."""
        return 1 / len(self.tokens)


def repeated(tokens: list[str]) -> tuple[int, int] | None:
    """Positions of the first word that occurs twice, or None."""
    seen: dict[str, int] = {}
    for k, tok in enumerate(tokens):
        if tok in seen:
            return seen[tok], k
        seen[tok] = k
    return None


@torch.inference_mode()
def same_word(cfg: SameWord) -> TwoPositions | None:
    """One attention head over the text with no PE and with sinusoidal PE (``cfg.mode``), its
    W^Q and W^K × ``cfg.qk_scale``: the weight rows of the two occurrences of its first
    repeated word and their difference (None if no word repeats)."""
    tokens = tokenize(cfg.text)
    pair = repeated(tokens)
    if pair is None:
        return None
    X = embed(tokens, SAME_WORD_D)  # (N, D)
    rows = {}
    for kind in ("none", "sinusoidal"):
        enc = PositionalEncoding(SAME_WORD_D, kind, cfg.mode)
        # no biases: the score is exactly formulas.position_score's
        # one head over a short sentence: on the CPU, where it costs less than a transfer
        mha = MultiHeadAttention(enc.out_dim, 1, bias=False, seed=cfg.seed, device="cpu")
        mha.W_Q.mul_(cfg.qk_scale)  # views of the head's parameters: scores × s²
        mha.W_K.mul_(cfg.qk_scale)
        _, trace = mha(enc(X))
        rows[kind] = trace.weights[0, 0, list(pair)].float().numpy()  # (2, N)
    difference = {pe: r[1] - r[0] for pe, r in rows.items()}  # (N,) each
    diff = {pe: float(np.abs(d).max()) for pe, d in difference.items()}
    columns = {f"{pe}@{k + 1}": r[n] for pe, r in rows.items() for n, k in enumerate(pair)}
    columns |= {f"{pe}:Δ": d for pe, d in difference.items()}
    shown = [formulas.positions("sinusoidal", cfg.mode)]
    if cfg.qk_scale != 1:
        shown.append(formulas.qk_scaled(cfg.qk_scale, head=""))
    shown += [formulas.position_score(cfg.mode), formulas.ROW_DIFFERENCE]
    table = pd.DataFrame(columns, index=tokens)
    return TwoPositions(tokens, pair[0], pair[1], rows, difference, diff, table, shown)
