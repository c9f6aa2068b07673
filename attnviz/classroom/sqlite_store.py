"""The class's store in one SQLite file (WAL): no set-up; every process on one host that
opens the same file shares the classes (one container, or replicas beside each other).

Each write is one ``BEGIN IMMEDIATE`` transaction that checks and writes together, so two
processes voting at once cannot both pass a check the other's write breaks. WAL lets reads
go on while one process writes; ``synchronous=NORMAL`` keeps every committed vote through a
killed process (not through a power cut, which a class can live with).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from . import base
from .base import (
    NONE,
    BadKey,
    ClassFull,
    NoClass,
    NotOffered,
    RoundClosed,
    State,
    StopSummary,
    Ticket,
    TooManyChanges,
    TooManyClasses,
    TooManyGuesses,
    UnknownStudent,
    Unreachable,
)

SCHEMA = """
CREATE TABLE IF NOT EXISTS classes (code TEXT PRIMARY KEY, key_hash TEXT NOT NULL,
  stop TEXT NOT NULL DEFAULT '', example INTEGER NOT NULL DEFAULT 0,
  created REAL NOT NULL, expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS stops (code TEXT, stop TEXT, example INTEGER, phase TEXT,
  choices TEXT, right TEXT, lang TEXT, PRIMARY KEY (code, stop, example));
CREATE TABLE IF NOT EXISTS students (code TEXT, student TEXT, joined REAL,
  PRIMARY KEY (code, student));
CREATE TABLE IF NOT EXISTS votes (code TEXT, stop TEXT, example INTEGER, round INTEGER,
  student TEXT, choice TEXT, time REAL, changes INTEGER,
  PRIMARY KEY (code, stop, example, round, student));
CREATE TABLE IF NOT EXISTS guesses (client TEXT, win INTEGER, n INTEGER,
  PRIMARY KEY (client, win));
"""
TABLES = ("classes", "stops", "students", "votes")  # a class's rows, by its code


class SQLiteStore(base.Store):
    def __init__(self, path: str | Path, ttl: float = base.TTL) -> None:
        super().__init__(ttl)
        self.path = str(path)
        self._local = threading.local()
        try:
            self._db().executescript(SCHEMA)
        except sqlite3.Error as exc:
            raise Unreachable(f"SQLite store {self.path}: {exc}") from exc

    def _db(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            self._local.db = db
        return db

    @contextmanager
    def _tx(self, write: bool = True):
        """One transaction; the file unreadable or locked too long → ``Unreachable``."""
        try:
            db = self._db()
            db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        except sqlite3.Error as exc:
            self._local.db = None
            raise Unreachable(f"SQLite store {self.path}: {exc}") from exc
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        else:
            try:
                db.execute("COMMIT")
            except sqlite3.Error as exc:
                raise Unreachable(f"SQLite store {self.path}: {exc}") from exc

    def _class(self, db, code: str, key: str | None = None):
        row = db.execute(
            "SELECT key_hash, stop, example, expires FROM classes WHERE code=?", (code,)
        ).fetchone()
        if row is None or row[3] <= time.time():
            raise NoClass()
        if key is not None and not base.key_matches(key, row[0]):
            raise BadKey()
        return row

    def _state_in(self, db, code: str) -> State:
        _, stop, example, expires = self._class(db, code)
        row = db.execute(
            "SELECT phase, choices, lang FROM stops WHERE code=? AND stop=? AND example=?",
            (code, stop, example),
        ).fetchone()
        phase, choices, lang = row if row else (NONE, "", "")
        choices = tuple(filter(None, choices.split(",")))
        return State(code, stop, example, phase, choices, expires, lang)

    def create(self) -> Ticket:
        self.purge()
        key, now = base.new_key(), time.time()
        with self._tx() as db:
            (live,) = db.execute("SELECT COUNT(*) FROM classes").fetchone()
            if live >= base.MAX_CLASSES:
                raise TooManyClasses()
            while True:
                code = base.new_code()
                if not db.execute("SELECT 1 FROM classes WHERE code=?", (code,)).fetchone():
                    break
            db.execute(
                "INSERT INTO classes (code, key_hash, created, expires) VALUES (?, ?, ?, ?)",
                (code, base.key_hash(key), now, now + self.ttl),
            )
        return Ticket(code, key)

    def _state(self, code: str) -> State:
        with self._tx(write=False) as db:
            return self._state_in(db, code)

    def join(self, code: str, client: str) -> tuple[State, str]:
        self.purge()
        win = int(time.time() // base.GUESS_WINDOW)
        with self._tx() as db:
            row = db.execute("SELECT n FROM guesses WHERE client=? AND win=?", (client, win))
            mine = (row.fetchone() or (0,))[0]
            (every,) = db.execute("SELECT COALESCE(SUM(n), 0) FROM guesses WHERE win=?", (win,))
            if mine >= base.MAX_GUESSES or every[0] >= base.MAX_GUESSES_ALL:
                raise TooManyGuesses()
            try:
                code = base.clean_code(code)
                self._class(db, code)
            except (base.BadCode, NoClass):
                db.execute("DELETE FROM guesses WHERE win<?", (win - 1,))
                db.execute(
                    "INSERT INTO guesses VALUES (?, ?, 1)"
                    " ON CONFLICT (client, win) DO UPDATE SET n=n+1",
                    (client, win),
                )
                failed = True
            else:
                failed = False
                (n,) = db.execute("SELECT COUNT(*) FROM students WHERE code=?", (code,)).fetchone()
                if n >= base.MAX_STUDENTS:
                    raise ClassFull()
                student = base.new_student()
                db.execute("INSERT INTO students VALUES (?, ?, ?)", (code, student, time.time()))
                state = self._state_in(db, code)
        if failed:  # raised after the commit, so the guess is counted
            base.clean_code(code)
            raise NoClass()
        return state, student

    def rejoin(self, code: str, student: str) -> State:
        code = base.clean_code(code)
        with self._tx(write=False) as db:
            state = self._state_in(db, code)
            known = db.execute(
                "SELECT 1 FROM students WHERE code=? AND student=?", (code, str(student))
            ).fetchone()
        if not known:
            raise UnknownStudent()
        return state

    def is_teacher(self, code: str, key: str | None) -> bool:
        try:
            with self._tx(write=False) as db:
                self._class(db, base.clean_code(code), key or "")
        except (BadKey, NoClass, base.BadCode):
            return False
        return True

    def move(self, code, key, stop, example, choices, right, lang="") -> State:
        code, choices = base.clean_code(code), tuple(str(c) for c in choices)
        phase = "vote1" if choices else NONE
        with self._tx() as db:
            self._class(db, code, key or "")
            db.execute(
                "INSERT OR IGNORE INTO stops VALUES (?, ?, ?, ?, ?, ?, ?)",
                (code, stop, int(example), phase, ",".join(choices), right, lang),
            )
            db.execute(
                "UPDATE classes SET stop=?, example=? WHERE code=?", (stop, int(example), code)
            )
            state = self._state_in(db, code)
        self._forget(code)
        return state

    def set_phase(self, code, key, phase) -> State:
        base.check_phase(phase)
        code = base.clean_code(code)
        with self._tx() as db:
            _, stop, example, _ = self._class(db, code, key or "")
            db.execute(
                "UPDATE stops SET phase=? WHERE code=? AND stop=? AND example=? AND phase!=?",
                (phase, code, stop, example, NONE),
            )
            state = self._state_in(db, code)
        self._forget(code)
        return state

    def vote(self, code, student, stop, example, rnd, choice) -> None:
        code = base.clean_code(code)
        with self._tx() as db:
            state = self._state_in(db, code)
            known = db.execute(
                "SELECT 1 FROM students WHERE code=? AND student=?", (code, str(student))
            ).fetchone()
            if not known:
                raise UnknownStudent()
            if (state.stop, state.example, state.round) != (stop, int(example), rnd):
                raise RoundClosed()
            if str(choice) not in state.choices:
                raise NotOffered()
            where = (code, stop, int(example), rnd, str(student))
            row = db.execute(
                "SELECT choice, changes FROM votes WHERE code=? AND stop=? AND example=?"
                " AND round=? AND student=?",
                where,
            ).fetchone()
            if row and row[0] == choice:
                return  # the same vote again: nothing to write
            if row and row[1] >= base.MAX_CHANGES:
                raise TooManyChanges()
            db.execute(
                "INSERT INTO votes VALUES (?, ?, ?, ?, ?, ?, ?, 1) ON CONFLICT"
                " (code, stop, example, round, student)"
                " DO UPDATE SET choice=excluded.choice, time=excluded.time, changes=changes+1",
                (*where, str(choice), time.time()),
            )

    def my_vote(self, code, student, stop, example, rnd) -> str | None:
        with self._tx(write=False) as db:
            row = db.execute(
                "SELECT choice FROM votes WHERE code=? AND stop=? AND example=? AND round=?"
                " AND student=?",
                (base.clean_code(code), stop, int(example), rnd, str(student)),
            ).fetchone()
        return row[0] if row else None

    def counts(self, code, stop, example, rnd) -> dict[str, int]:
        with self._tx(write=False) as db:
            rows = db.execute(
                "SELECT choice, COUNT(*) FROM votes WHERE code=? AND stop=? AND example=?"
                " AND round=? GROUP BY choice",
                (base.clean_code(code), stop, int(example), rnd),
            ).fetchall()
        return dict(rows)

    def summary(self, code, key) -> list[StopSummary]:
        code = base.clean_code(code)
        with self._tx(write=False) as db:
            self._class(db, code, key or "")
            stops = db.execute(
                "SELECT stop, example, phase, right FROM stops WHERE code=? AND phase!=?"
                " ORDER BY rowid",
                (code, NONE),
            ).fetchall()
            votes = db.execute(
                "SELECT stop, example, round, choice, COUNT(*) FROM votes WHERE code=?"
                " GROUP BY stop, example, round, choice",
                (code,),
            ).fetchall()
        counts: dict = {}
        for stop, example, rnd, choice, n in votes:
            counts.setdefault((stop, example, rnd), {})[choice] = n
        return [
            StopSummary(s, e, p, r, (counts.get((s, e, 1), {}), counts.get((s, e, 2), {})))
            for s, e, p, r in stops
        ]

    def end(self, code, key) -> None:
        code = base.clean_code(code)
        with self._tx() as db:
            self._class(db, code, key or "")
            for table in TABLES:
                db.execute(f"DELETE FROM {table} WHERE code=?", (code,))
        self._forget(code)

    def purge(self) -> int:
        with self._tx() as db:
            gone = [
                c
                for (c,) in db.execute("SELECT code FROM classes WHERE expires<=?", (time.time(),))
            ]
            for code in gone:
                for table in TABLES:
                    db.execute(f"DELETE FROM {table} WHERE code=?", (code,))
        for code in gone:
            self._forget(code)
        return len(gone)

    def rows(self) -> dict[str, int]:
        """Rows per table (for tests: what expiry leaves)."""
        with self._tx(write=False) as db:
            return {t: db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in TABLES}
