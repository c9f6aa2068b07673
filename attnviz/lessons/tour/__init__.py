"""The tour (S1 → S16): the chapter's claims in order, each an exercise asked on a lesson's
result, its figure drawn from the same configuration as the page its link opens.

``stops.ASKS`` holds how each claim is asked; ``scoring_asks`` (S1, S2), ``learned_asks``
(S4–S6), ``output_asks`` (what attention puts out), ``law_asks``, ``block_asks`` and
``depth_asks`` (S14) the exercises by lesson; ``exercise`` the checked exercise itself. Each
stop asks one of a few concept questions, the example's seed picking which, with the choices
in an order drawn per example.
"""

from .exercise import Choice, Exercise, NoQuestion, sentences
from .stops import ASKS, CLAIMS, PAGE_FILES, Ask, Stop, from_origin, origin, stop, stops

__all__ = [
    "ASKS",
    "CLAIMS",
    "PAGE_FILES",
    "Ask",
    "Choice",
    "Exercise",
    "NoQuestion",
    "Stop",
    "from_origin",
    "origin",
    "sentences",
    "stop",
    "stops",
]
