"""A class on the tour: peer instruction's votes, in a store every server process shares.

Here, on the engine's floor, because it never imports streamlit: the contract tests, the load
tests and the benchmarks use the store without a server, and the app's page
(pages/start/classroom.py) is one client of it among others. Nothing here reads the chapter's
lessons either: a stop is a name, its choices are keys, and the app says which.

``open_store(url)`` picks the store from ``ATTNVIZ_STORE``: unset or ``sqlite:///path`` is a
SQLite file (``DEFAULT_PATH`` unless a path is given; ``sqlite:////abs/path`` and
``sqlite:///relative/path`` as SQLAlchemy writes them), ``redis://host:port/db`` is Redis.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .base import (
    ALPHABET,
    CODE_LEN,
    MAX_CHANGES,
    MAX_CLASSES,
    MAX_GUESSES,
    MAX_STUDENTS,
    PHASES,
    TTL,
    BadCode,
    BadKey,
    ClassError,
    ClassFull,
    NoClass,
    NotOffered,
    RoundClosed,
    State,
    StopSummary,
    Store,
    Ticket,
    TooManyChanges,
    TooManyClasses,
    TooManyGuesses,
    UnknownStudent,
    Unreachable,
    clean_code,
)

DEFAULT_PATH = Path(tempfile.gettempdir()) / "attnviz-classes.sqlite3"

__all__ = [
    "ALPHABET",
    "CODE_LEN",
    "DEFAULT_PATH",
    "MAX_CHANGES",
    "MAX_CLASSES",
    "MAX_GUESSES",
    "MAX_STUDENTS",
    "PHASES",
    "TTL",
    "BadCode",
    "BadKey",
    "ClassError",
    "ClassFull",
    "NoClass",
    "NotOffered",
    "RoundClosed",
    "State",
    "StopSummary",
    "Store",
    "Ticket",
    "TooManyChanges",
    "TooManyClasses",
    "TooManyGuesses",
    "UnknownStudent",
    "Unreachable",
    "clean_code",
    "open_store",
]


def open_store(url: str | None = None, ttl: float = TTL) -> Store:
    """The store ``url`` names (``ATTNVIZ_STORE`` when None). A URL of another scheme is a
    ``ValueError``; a store that cannot be reached raises ``Unreachable`` when used."""
    url = url if url is not None else os.environ.get("ATTNVIZ_STORE", "")
    if url.startswith(("redis://", "rediss://", "unix://")):
        from .redis_store import RedisStore

        return RedisStore(url, ttl)
    if not url or url.startswith("sqlite:///"):
        from .sqlite_store import SQLiteStore

        path = url[len("sqlite:///") :] if url else ""  # sqlite:////abs, sqlite:///relative
        return SQLiteStore(path or DEFAULT_PATH, ttl)
    raise ValueError(f"ATTNVIZ_STORE must be sqlite:///<path> or redis://…, got {url!r}")
