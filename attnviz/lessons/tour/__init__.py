"""The tour (S1 → S16): the chapter's claims in order, each an exercise asked on a lesson's
result, its figure drawn from the same configuration as the page its link opens.

``stops.ASKS`` holds how each claim is asked; ``scoring_asks`` and ``output_asks`` (the
scoring lesson's weights and outputs), ``law_asks`` and ``block_asks`` the exercises by
lesson; ``exercise`` the checked exercise itself.
"""

from .exercise import Choice, Exercise, sentences
from .stops import ASKS, CLAIMS, PAGE_FILES, Ask, Stop, stop, stops

__all__ = [
    "ASKS",
    "CLAIMS",
    "PAGE_FILES",
    "Ask",
    "Choice",
    "Exercise",
    "Stop",
    "sentences",
    "stop",
    "stops",
]
