"""An exercise: a question on one stop's computed result, its choices and the verdict's reason.

The right choice and every distractor are read from the lesson's result at the stop's
configuration; :func:`exercise` refuses a set in which a distractor is right too (two
equal keys, or a value within ``tie`` of the right one), so no choice can happen to be
right by accident.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...i18n import t


@dataclass(frozen=True)
class Choice:
    key: str  # what the answer records: a word, a score's name, a bucket
    label: str  # as shown, in the reader's language


@dataclass(frozen=True)
class Exercise:
    claim: str  # "S1" … "S16"
    question: str  # in the reader's language, with this example's values
    choices: tuple[Choice, ...]  # 3 or 4, the right one among them, in a fixed order
    right: str  # the key of the right choice
    why: str  # two or three sentences: the reason, pointing at the figure

    def is_right(self, key: str) -> bool:
        return key == self.right

    def label(self, key: str) -> str:
        return next(c.label for c in self.choices if c.key == key)


def exercise(
    claim: str,
    question: str,
    choices: Sequence[Choice],
    right: str,
    why: str,
    values: dict[str, float] | None = None,
    tie: float = 0.0,
) -> Exercise:
    """An :class:`Exercise`, checked: 3–4 distinct choices, the right one among them, and
    (with ``values``, each choice's measured value, the right one the largest) no
    distractor within ``tie`` of it."""
    keys = [c.key for c in choices]
    if not 3 <= len(keys) <= 4 or len(set(keys)) != len(keys) or right not in keys:
        raise ValueError(f"{claim}: choices {keys} must be 3–4 distinct and hold {right!r}")
    if values is not None:
        best = values[right]
        close = [k for k in keys if k != right and values[k] >= best - tie]
        if close:
            raise ValueError(f"{claim}: {close} are as good as {right!r}")
    return Exercise(claim, question, tuple(choices), right, why)


def pick_distractors(
    candidates: Sequence[str], values: dict[str, float], right: str, n: int, seed: int, tie: float
) -> list[str]:
    """Up to ``n`` of ``candidates`` whose value is below the right one's by more than
    ``tie`` (no other can be a wrong answer), drawn by ``seed``; the runner-up first, so
    the choice is not given away by the figure's obvious losers."""
    best = values[right]
    wrong = [c for c in candidates if c != right and values[c] < best - tie]
    if not wrong:
        return []
    wrong.sort(key=lambda c: -values[c])
    rest = wrong[1:]
    rng = np.random.default_rng(seed)
    drawn = [rest[i] for i in sorted(rng.permutation(len(rest))[: n - 1])] if rest else []
    return [wrong[0], *drawn]


def in_order(keys: Sequence[str], order: Sequence[str]) -> list[str]:
    """``keys`` sorted by their place in ``order``: the choices in the figure's order."""
    return sorted(keys, key=list(order).index)


def tr(key: str, lang: str, **fields: object) -> str:
    """A tour string: ``tour.<key>`` in ``lang``."""
    return t(f"tour.{key}", lang, **fields)


def sentences(lang: str, *parts: str) -> str:
    """Sentences one after another as the language writes them: Japanese puts no space
    after 。, English one after the full stop."""
    return ("" if lang == "ja" else " ").join(parts)
