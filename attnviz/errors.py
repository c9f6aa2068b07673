"""Whose fault an exception is, each its own type.

- ``InputError``: the student's (or a caller's) bad input. A ``ValueError``, so the engine's
  Python API raises ValueError for a bad argument; its catalogue key and fields let the app
  say the same thing in the reader's language (``errors.<key>`` in the string files).
- ``Outcome``: an expected result that is neither bad input nor a bug (an example whose
  values tie two answers, a training run that diverged). Each has its own subclass, raised
  where it arises and caught by that type where a page or lesson has a path for it.
- Anything else is the app's own fault: the page's frame logs it with a short id and shows
  the app's error with that id (ui.messages.app_error).
"""

from __future__ import annotations


class InputError(ValueError):
    """``str(err)`` is the English message; ``key`` and ``fields`` rebuild it in any language.

    ``fields["name"]``, when present, is the parameter's name as the engine spells it.
    """

    def __init__(self, message: str, key: str, **fields: object) -> None:
        super().__init__(message)
        self.key = key
        self.fields = fields


class NonFinite(InputError):
    """A tensor given to the engine holds NaN or infinity (``limits.check_finite``)."""


class Outcome(Exception):
    """An expected outcome: neither the student's input nor the app's fault."""


class Diverged(Outcome):
    """A model's values in training turned non-finite: it has diverged, and its race stops."""
