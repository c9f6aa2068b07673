"""What a class's store keeps and refuses, whichever store keeps it (SQLite or Redis).

A class: a 6-character code (``ALPHABET``: nothing a reader can misread, no 0/O, 1/I/l,
2/Z, 5/S, 8/B), the SHA-256 of its teacher's key (the key itself, 192 random bits, is
never stored), the stop and example it is on, and its expiry (``TTL``, 12 h after it
started). Each (stop, example) the class has visited has a phase (``PHASES``), the choices
it offers and the right one. A vote: (class, stop, example, round, student) → choice and
time, one per student per round, overwritten until the round closes. A student is a random
id the store issued when the browser joined; no name, no address.

Every refusal is its own ``ClassError`` subclass with a ``key`` (``classroom.err_<key>`` in
the string files), so the app says it in the reader's language.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
import time
from dataclasses import dataclass

ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"  # 25 characters, 25**6 ≈ 2.4e8 codes
CODE_LEN = 6
CODE_RE = re.compile(rf"[{ALPHABET}]{{{CODE_LEN}}}")
TTL = 12 * 3600  # seconds a class lives, with its votes
MAX_CLASSES = 200  # live classes in one store (a school's server)
MAX_STUDENTS = 400  # students in one class (a lecture hall)
MAX_CHANGES = 30  # writes of one student's vote in one round: a flood stops there
GUESS_WINDOW = 60  # seconds
MAX_GUESSES = 10  # wrong codes one client may try per window
MAX_GUESSES_ALL = 600  # wrong codes all clients together may try per window
PHASES = ("vote1", "discuss", "vote2", "reveal")  # and "none": the stop asks nothing
NONE = "none"


class ClassError(Exception):
    """A refusal the app shows as ``classroom.err_<key>``; ``str()`` is the English."""

    key = "error"

    def __init__(self, message: str = "") -> None:
        super().__init__(message or self.__doc__.strip().splitlines()[0])


class BadCode(ClassError):
    """That is not a class code: 6 characters from the code's alphabet."""

    key = "bad_code"


class NoClass(ClassError):
    """No class has that code (it may have ended or expired)."""

    key = "no_class"


class BadKey(ClassError):
    """The teacher's key is wrong or missing: nothing was changed."""

    key = "bad_key"


class UnknownStudent(ClassError):
    """This browser has not joined that class."""

    key = "unknown_student"


class RoundClosed(ClassError):
    """That round is not open for votes."""

    key = "round_closed"


class NotOffered(ClassError):
    """That choice is not one this stop offers."""

    key = "not_offered"


class TooManyChanges(ClassError):
    """Too many changes of one vote in this round: the last one kept counts."""

    key = "too_many_changes"


class TooManyGuesses(ClassError):
    """Too many wrong class codes: wait a minute and try again."""

    key = "too_many_guesses"


class TooManyClasses(ClassError):
    """This server runs as many classes as it may: try again later."""

    key = "too_many_classes"


class ClassFull(ClassError):
    """This class has as many students as it may take."""

    key = "class_full"


class Unreachable(ClassError):
    """The class's store cannot be reached."""

    key = "unreachable"


@dataclass(frozen=True)
class Ticket:
    """A new class: its code, and the teacher's key (shown once, to the teacher)."""

    code: str
    key: str


@dataclass(frozen=True)
class State:
    """Where a class is: what every student's screen follows."""

    code: str
    stop: str  # "" before the teacher has moved it anywhere
    example: int
    phase: str  # PHASES or NONE
    choices: tuple[str, ...]  # the keys the stop offers
    expires: float  # seconds since the epoch
    # the language the stop's example was computed in (the teacher's): an example can be a
    # text of that language, so every student computes the same one, asked in their own
    lang: str = ""

    @property
    def round(self) -> int | None:
        """The round open for votes (1 or 2), if any."""
        return {"vote1": 1, "vote2": 2}.get(self.phase)


@dataclass(frozen=True)
class StopSummary:
    """One stop (and example) of a class, for the teacher's summary."""

    stop: str
    example: int
    phase: str
    right: str
    counts: tuple[dict[str, int], dict[str, int]]  # round 1, round 2: choice → votes

    def voters(self, rnd: int) -> int:
        return sum(self.counts[rnd - 1].values())

    def right_share(self, rnd: int) -> float | None:
        n = self.voters(rnd)
        return self.counts[rnd - 1].get(self.right, 0) / n if n else None


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LEN))


def new_key() -> str:
    return secrets.token_urlsafe(24)  # 192 bits


def new_student() -> str:
    return secrets.token_urlsafe(16)  # 128 bits: nobody votes as another by guessing


def key_hash(key: str) -> str:
    """The key is 192 random bits: a plain SHA-256 is enough (nothing to brute-force)."""
    return hashlib.sha256(key.encode()).hexdigest()


def key_matches(key: str | None, stored_hash: str) -> bool:
    return bool(key) and hmac.compare_digest(key_hash(str(key)), stored_hash)


def clean_code(code: object) -> str:
    """``code`` as stored (upper case, no spaces or hyphens), or ``BadCode``."""
    text = re.sub(r"[\s-]", "", str(code or "")).upper()
    if not CODE_RE.fullmatch(text):
        raise BadCode()
    return text


def check_phase(phase: str) -> None:
    if phase not in PHASES:
        raise ValueError(f"phase must be one of {PHASES}, got {phase!r}")


class Store:
    """The interface both stores implement (``attnviz.classroom.open_store`` picks one).

    Reads of a class's state are cached in the process for ``fresh`` seconds: a hall of
    students polling the same class costs the store one read per ``fresh``, not one each.
    """

    fresh = 0.25

    def __init__(self, ttl: float = TTL) -> None:
        self.ttl = ttl
        self._cache: dict[str, tuple[float, State]] = {}
        self._lock = threading.Lock()

    # the store's own operations, by each implementation
    def create(self) -> Ticket:
        raise NotImplementedError

    def _state(self, code: str) -> State:
        raise NotImplementedError

    def join(self, code: str, client: str) -> tuple[State, str]:
        """Join class ``code`` as a new student: its state and the student's id. ``client``
        names who is guessing (a browser session) for the limit on wrong codes."""
        raise NotImplementedError

    def rejoin(self, code: str, student: str) -> State:
        """A student back (a reload): its state, or ``UnknownStudent``."""
        raise NotImplementedError

    def move(
        self, code: str, key: str, stop: str, example: int, choices, right: str, lang: str = ""
    ) -> State:
        """The teacher's screen is on (stop, example): the class follows. A stop seen before
        keeps its phase; a new one opens round 1 (or asks nothing, with no choices)."""
        raise NotImplementedError

    def set_phase(self, code: str, key: str, phase: str) -> State:
        raise NotImplementedError

    def vote(self, code: str, student: str, stop: str, example: int, rnd: int, choice: str):
        raise NotImplementedError

    def my_vote(self, code: str, student: str, stop: str, example: int, rnd: int) -> str | None:
        raise NotImplementedError

    def counts(self, code: str, stop: str, example: int, rnd: int) -> dict[str, int]:
        raise NotImplementedError

    def summary(self, code: str, key: str) -> list[StopSummary]:
        raise NotImplementedError

    def end(self, code: str, key: str) -> None:
        """The teacher ends the class: it and its votes are deleted now."""
        raise NotImplementedError

    def purge(self) -> int:
        """Delete expired classes with their votes; how many."""
        raise NotImplementedError

    def is_teacher(self, code: str, key: str | None) -> bool:
        raise NotImplementedError

    # shared
    def state(self, code: str, fresh: float | None = None) -> State:
        """The class's state, read at most ``fresh`` seconds ago (``NoClass`` if none)."""
        code = clean_code(code)
        age = self.fresh if fresh is None else fresh
        now = time.monotonic()
        with self._lock:
            hit = self._cache.get(code)
        if hit and now - hit[0] < age:
            return hit[1]
        state = self._state(code)
        with self._lock:
            if len(self._cache) > 4 * MAX_CLASSES:
                self._cache.clear()
            self._cache[code] = (now, state)
        return state

    def _forget(self, code: str) -> None:
        with self._lock:
            self._cache.pop(code, None)
