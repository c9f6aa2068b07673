"""Bad input as ``InputError``: a ``ValueError`` whose catalogue key and fields let the app
say the same thing in the reader's language (``errors.<key>`` in the string files)."""

from __future__ import annotations


class InputError(ValueError):
    """``str(err)`` is the English message; ``key`` and ``fields`` rebuild it in any language.

    ``fields["name"]``, when present, is the parameter's name as the engine spells it.
    """

    def __init__(self, message: str, key: str, **fields: object) -> None:
        super().__init__(message)
        self.key = key
        self.fields = fields
