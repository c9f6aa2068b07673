"""An exercise: a concept question on one stop's claim, its choices and the verdict's reason.

Each stop asks one of a few kinds of question, the example's seed picking the kind, so the
right answer moves from one example to the next; :func:`exercise` then places the choices
in an order drawn from the claim and the seed (a link reopens the same order) that puts the
right one at each letter equally often over every run of examples. It refuses a set of
choices with two equal keys or labels, so no distractor can be right by accident.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...errors import Outcome
from ...i18n import t


class NoQuestion(Outcome):
    """This example cannot ask its question (its values tie two answers): the stop shows
    its figure alone. An expected outcome, not a bad input or a bug."""


@dataclass(frozen=True)
class Choice:
    key: str  # what the answer records: a stable id of the choice for this stop and example
    label: str  # as shown, in the reader's language


@dataclass(frozen=True)
class Exercise:
    claim: str  # "S1" … "S16"
    kind: str  # which of the stop's questions this example asks
    question: str  # in the reader's language, with this example's values
    choices: tuple[Choice, ...]  # 3 or 4, the right one among them, in the example's order
    right: str  # the key of the right choice
    why: str  # the reason in the chapter's terms, pointing at what the figure shows
    given: str = ""  # the example's values the question reasons from, shown before it

    def is_right(self, key: str) -> bool:
        return key == self.right

    def label(self, key: str) -> str:
        return next(c.label for c in self.choices if c.key == key)

    def letter(self, key: str) -> str:
        """A, B, C or D: where choice ``key`` stands."""
        return "ABCD"[[c.key for c in self.choices].index(key)]


def kind(seed: int, kinds: Sequence[str]) -> str:
    """The kind of question example ``seed`` asks: each in turn."""
    return kinds[seed % len(kinds)]


def arranged(claim: str, seed: int, choices: Sequence[Choice], right: str) -> tuple[Choice, ...]:
    """``choices`` in the order example ``seed`` shows them. Over seeds n·b … n·b + n − 1
    (n choices) the right one stands once at each letter, in an order drawn per block b; the
    distractors are shuffled per seed. Both draws are seeded by the claim, so a link reopens
    the same order."""
    n = len(choices)
    block, slot = divmod(seed, n)
    number = int(claim.lstrip("S"))
    at = int(np.random.default_rng([number, n, block]).permutation(n)[slot])
    others = [c for c in choices if c.key != right]
    order = np.random.default_rng([number, n, block, slot, 1]).permutation(len(others))
    placed = [others[i] for i in order]
    placed.insert(at, next(c for c in choices if c.key == right))
    return tuple(placed)


def exercise(
    claim: str,
    seed: int,
    kind_: str,
    question: str,
    choices: Sequence[Choice],
    right: str,
    why: str,
    given: str = "",
) -> Exercise:
    """An :class:`Exercise`, checked (3–4 choices with distinct keys and labels, the right
    one among them) and arranged (:func:`arranged`)."""
    keys, labels = [c.key for c in choices], [c.label for c in choices]
    if not 3 <= len(keys) <= 4 or len(set(keys)) != len(keys) or right not in keys:
        raise ValueError(f"{claim}: choices {keys} must be 3–4 distinct and hold {right!r}")
    if len(set(labels)) != len(labels):
        raise ValueError(f"{claim}: two choices read the same: {labels}")
    ordered = arranged(claim, seed, choices, right)
    return Exercise(claim, kind_, question, ordered, right, why, given)


def numbers(right: tuple[str, float, str], *others: tuple[str, float, str]) -> list[Choice]:
    """Choices from (key, value, label): those whose value equals the right one's are left
    out (N = D would make "N numbers" right too)."""
    key, value, label = right
    kept = [Choice(key, label)]
    for k, v, lab in others:
        if not np.isclose(v, value, rtol=1e-9, atol=0.0) and lab not in {c.label for c in kept}:
            kept.append(Choice(k, lab))
    return kept


def shaped(right: str, shapes: dict[str, tuple[int, int]]) -> list[Choice]:
    """Choices "a × b" from {key: shape}, the right one's first; a distractor of the right
    one's shape is left out."""
    kept = {right: shapes[right]}
    for k, s in shapes.items():
        if s not in kept.values():
            kept[k] = s
    return [Choice(k, f"{a} × {b}") for k, (a, b) in kept.items()]


def tr(key: str, lang: str, **fields: object) -> str:
    """A tour string: ``tour.<key>`` in ``lang``."""
    return t(f"tour.{key}", lang, **fields)


def choices_of(prefix: str, keys: Sequence[str], lang: str, **fields: object) -> list[Choice]:
    """Choices whose labels are the strings ``tour.<prefix>_<key>``."""
    return [Choice(k, tr(f"{prefix}_{k}", lang, **fields)) for k in keys]


def sentences(lang: str, *parts: str) -> str:
    """Sentences one after another as the language writes them: Japanese puts no space
    after 。, English one after the full stop."""
    return ("" if lang == "ja" else " ").join(p for p in parts if p)


def listing(lang: str, pairs: Sequence[tuple[str, str]]) -> str:
    """(word, value) pairs as one line: 「猫」 1.23、「が」 −0.40 in Japanese, “cat” 1.23, …
    in English."""
    if lang == "ja":
        return "、".join(f"「{w}」 {v}" for w, v in pairs)
    return ", ".join(f"“{w}” {v}" for w, v in pairs)


def signed(x: float, digits: int = 2) -> str:
    """A number with a true minus sign: −0.40, not -0.40."""
    return f"{x:.{digits}f}".replace("-", "−")
