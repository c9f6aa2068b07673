"""Positional encodings (S15, S16): the table E = [p_1, …, p_N]ᵀ, similarity between
positions, and the same word at two positions with and without p_i.

E is the chapter's table of p_i (P names a permutation elsewhere). With the engine's
0-based rows, E[i, 2k] = sin(i / 10000^{2k/D}) and E[i, 2k+1] = cos(i / 10000^{2k/D});
the page numbers positions and components from 1 (formulas.SINUSOIDAL). Similarity
S[i, j] = p_iᵀ p_j. Without p_i a repeated word has identical attention rows (S7); with
them one head scores (x_i + p_i)ᵀ W^Q W^Kᵀ (x_j + p_j) / √D, of which p_iᵀ p_j is one term.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from .. import formulas
from ..attention import MultiHeadAttention
from ..limits import MAX_D, MAX_SEED, check_choice, check_int
from ..positional import KINDS, MODES, PositionalEncoding
from ..text import embed, tokenize
from .training_race.model import NORMS
from .training_race.results import LearnedPositions

TABLES = ("sinusoidal", "learned")  # tables drawn from the page's own N, D and seed
RACE_TABLES = tuple(f"race_{norm}" for norm in NORMS)  # a training race's learned tables
MAX_POSITIONS = 256  # N and D of the tables drawn
SAME_WORD_D = 64  # width of the word vectors in the same-word comparison


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
    seed: int = 0  # of a learned table at initialisation
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
    S: np.ndarray  # (N, N) similarity between positions
    widths: Widths
    formulas: list[str]  # LaTeX of the table and similarity shown


def table(kind: str, N: int, D: int, seed: int) -> np.ndarray:
    """The (N, D) matrix of p_1 … p_N for ``kind`` (sinusoidal, or learned at initialisation)."""
    with torch.no_grad():
        return PositionalEncoding(D, kind, seed=seed).table(N).float().numpy().copy()


def similarity(E: np.ndarray, cosine: bool = False) -> np.ndarray:
    """S = E Eᵀ (N, N); with ``cosine`` each row of E is first scaled to unit length."""
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
    seed: int = 0  # of the attention head's weights

    def __post_init__(self) -> None:
        check_choice("positional encoding mode", self.mode, MODES)
        check_int("seed", self.seed, 0, MAX_SEED)


@dataclass(frozen=True)
class TwoPositions:
    tokens: list[str]
    i: int  # first position of the repeated word (0-based)
    j: int  # second position (0-based)
    rows: dict[str, np.ndarray]  # {"none" | "sinusoidal": (2, N) attention rows of i and j}
    diff: dict[str, float]  # largest |row_i − row_j| without and with PE
    table: pd.DataFrame  # every row, one column "<pe>@<position from 1>", one entry per key
    formulas: list[str]  # LaTeX of how p_i enters the head and what the head scores


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
    """One attention head over the text with no PE and with sinusoidal PE (``cfg.mode``): the
    weight rows of the two occurrences of its first repeated word (None if no word repeats)."""
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
        _, trace = mha(enc(X))
        rows[kind] = trace.weights[0, 0, list(pair)].float().numpy()  # (2, N)
    diff = {pe: float(np.abs(r[0] - r[1]).max()) for pe, r in rows.items()}
    columns = {f"{pe}@{k + 1}": r[n] for pe, r in rows.items() for n, k in enumerate(pair)}
    shown = [formulas.positions("sinusoidal", cfg.mode), formulas.position_score(cfg.mode)]
    return TwoPositions(
        tokens, pair[0], pair[1], rows, diff, pd.DataFrame(columns, index=tokens), shown
    )
