"""The class's store in Redis (``ATTNVIZ_STORE=redis://host:6379/0``): for replicas on
several hosts and for Kubernetes, where no file is shared.

Each check-and-write (create under the cap, join under the cap, a vote, a phase) is one Lua
script, which Redis runs alone: no other client's write lands between its check and its
write. Every key of a class expires with it (``PEXPIREAT``), so Redis deletes a class's
votes itself; nothing outlives the class.

Keys: ``av:class:<code>`` (hash: key_hash, stop, example, created, expires in ms),
``av:stops:<code>`` (hash "<stop>|<example>" → JSON phase, choices, right, order),
``av:students:<code>`` (set), ``av:votes:<code>:<stop>|<example>|<round>`` (hash student →
choice) and ``av:changes:…`` beside it (student → writes), ``av:keys:<code>`` (the vote keys,
for ``end``), ``av:classes`` (sorted set: code by expiry, for the cap), ``av:guess:<window>``.
"""

from __future__ import annotations

import json
import time
from contextlib import contextmanager

from . import base
from .base import NONE, BadKey, NoClass, State, StopSummary, Ticket, Unreachable

CREATE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[5]) then return 'too_many_classes' end
if redis.call('EXISTS', KEYS[2]) == 1 then return 'taken' end
redis.call('HSET', KEYS[2], 'key_hash', ARGV[2], 'stop', '', 'example', '0',
  'created', ARGV[3], 'expires', ARGV[4])
redis.call('PEXPIREAT', KEYS[2], ARGV[4])
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1])
return 'ok'
"""
JOIN = """
local expires = redis.call('HGET', KEYS[1], 'expires')
if not expires then return 'no_class' end
if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[2]) then return 'class_full' end
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('PEXPIREAT', KEYS[2], expires)
return 'ok'
"""
MOVE = """
local expires = redis.call('HGET', KEYS[1], 'expires')
if not expires then return 'no_class' end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 then
  local entry = cjson.decode(ARGV[3])
  entry['order'] = redis.call('HLEN', KEYS[2])
  redis.call('HSET', KEYS[2], ARGV[1], cjson.encode(entry))
end
redis.call('HSET', KEYS[1], 'stop', ARGV[2], 'example', ARGV[4])
redis.call('PEXPIREAT', KEYS[2], expires)
return 'ok'
"""
PHASE = """
local c = redis.call('HMGET', KEYS[1], 'stop', 'example')
if not c[1] then return 'no_class' end
local field = c[1] .. '|' .. c[2]
local raw = redis.call('HGET', KEYS[2], field)
if raw then
  local entry = cjson.decode(raw)
  if entry['phase'] ~= 'none' then
    entry['phase'] = ARGV[1]
    redis.call('HSET', KEYS[2], field, cjson.encode(entry))
  end
end
return 'ok'
"""
VOTE = """
local c = redis.call('HMGET', KEYS[1], 'stop', 'example', 'expires')
if not c[1] then return 'no_class' end
if redis.call('SISMEMBER', KEYS[3], ARGV[1]) == 0 then return 'unknown_student' end
if c[1] ~= ARGV[2] or c[2] ~= ARGV[3] then return 'round_closed' end
local raw = redis.call('HGET', KEYS[2], ARGV[2] .. '|' .. ARGV[3])
if not raw then return 'round_closed' end
local entry = cjson.decode(raw)
if entry['phase'] ~= 'vote' .. ARGV[4] then return 'round_closed' end
local offered = false
for _, k in ipairs(entry['choices']) do if k == ARGV[5] then offered = true end end
if not offered then return 'not_offered' end
if redis.call('HGET', KEYS[4], ARGV[1]) == ARGV[5] then return 'ok' end
local n = tonumber(redis.call('HGET', KEYS[5], ARGV[1]) or '0')
if n >= tonumber(ARGV[6]) then return 'too_many_changes' end
redis.call('HSET', KEYS[4], ARGV[1], ARGV[5])
redis.call('HSET', KEYS[5], ARGV[1], n + 1)
redis.call('SADD', KEYS[6], KEYS[4], KEYS[5])
for i = 4, 6 do redis.call('PEXPIREAT', KEYS[i], c[3]) end
return 'ok'
"""
REFUSALS = {
    cls.key: cls
    for cls in (
        base.NoClass,
        base.UnknownStudent,
        base.RoundClosed,
        base.NotOffered,
        base.TooManyChanges,
        base.TooManyClasses,
        base.ClassFull,
    )
}


def _k(kind: str, code: str, tail: str = "") -> str:
    return f"av:{kind}:{code}" + (f":{tail}" if tail else "")


class RedisStore(base.Store):
    def __init__(self, url: str, ttl: float = base.TTL) -> None:
        import redis  # only where Redis is chosen: the SQLite default needs no client

        super().__init__(ttl)
        self._errors = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
        self.r = redis.Redis.from_url(
            url, decode_responses=True, socket_connect_timeout=1, socket_timeout=2
        )
        self._scripts = {
            name: self.r.register_script(src)
            for name, src in dict(
                create=CREATE, join=JOIN, move=MOVE, phase=PHASE, vote=VOTE
            ).items()
        }

    @contextmanager
    def _io(self):
        try:
            yield
        except self._errors as exc:
            raise Unreachable(f"Redis store: {exc}") from exc

    def _run(self, name: str, keys: list[str], args: list) -> None:
        with self._io():
            said = self._scripts[name](keys=keys, args=args)
        if said != "ok":
            raise REFUSALS[said]()

    def _class(self, code: str, key: str | None = None) -> dict:
        with self._io():
            c = self.r.hgetall(_k("class", code))
        if not c or float(c["expires"]) / 1000 <= time.time():
            raise NoClass()
        if key is not None and not base.key_matches(key, c["key_hash"]):
            raise BadKey()
        return c

    def create(self) -> Ticket:
        key, now = base.new_key(), time.time()
        args = [base.key_hash(key), int(now * 1000), int((now + self.ttl) * 1000)]
        while True:
            code = base.new_code()
            with self._io():
                said = self._scripts["create"](
                    keys=["av:classes", _k("class", code)],
                    args=[code, *args, base.MAX_CLASSES],
                )
            if said == "ok":
                return Ticket(code, key)
            if said != "taken":
                raise REFUSALS[said]()

    def _state(self, code: str) -> State:
        c = self._class(code)
        stop, example = c["stop"], int(c["example"])
        with self._io():
            raw = self.r.hget(_k("stops", code), f"{stop}|{example}")
        entry = json.loads(raw) if raw else {"phase": NONE, "choices": []}
        choices = tuple(entry["choices"] or ())
        expires, lang = float(c["expires"]) / 1000, entry.get("lang", "")
        return State(code, stop, example, entry["phase"], choices, expires, lang)

    def join(self, code: str, client: str) -> tuple[State, str]:
        win = int(time.time() // base.GUESS_WINDOW)
        guesses = f"av:guess:{win}"
        with self._io():
            mine, every = self.r.hmget(guesses, [client, "*all*"])
        if int(mine or 0) >= base.MAX_GUESSES or int(every or 0) >= base.MAX_GUESSES_ALL:
            raise base.TooManyGuesses()
        try:
            code = base.clean_code(code)
            student = base.new_student()
            self._run(
                "join", [_k("class", code), _k("students", code)], [student, base.MAX_STUDENTS]
            )
        except (base.BadCode, NoClass):
            with self._io():
                pipe = self.r.pipeline()
                pipe.hincrby(guesses, client, 1)
                pipe.hincrby(guesses, "*all*", 1)
                pipe.expire(guesses, 2 * base.GUESS_WINDOW)
                pipe.execute()
            raise
        return self._state(code), student

    def rejoin(self, code: str, student: str) -> State:
        code = base.clean_code(code)
        state = self._state(code)
        with self._io():
            known = self.r.sismember(_k("students", code), str(student))
        if not known:
            raise base.UnknownStudent()
        return state

    def is_teacher(self, code: str, key: str | None) -> bool:
        try:
            self._class(base.clean_code(code), key or "")
        except (BadKey, NoClass, base.BadCode):
            return False
        return True

    def move(self, code, key, stop, example, choices, right, lang="") -> State:
        code, choices = base.clean_code(code), [str(c) for c in choices]
        self._class(code, key or "")
        phase = "vote1" if choices else NONE
        entry = {"phase": phase, "choices": choices, "right": right, "lang": lang}
        keys = [_k("class", code), _k("stops", code)]
        field = f"{stop}|{int(example)}"
        self._run("move", keys, [field, stop, json.dumps(entry), int(example)])
        self._forget(code)
        return self._state(code)

    def set_phase(self, code, key, phase) -> State:
        base.check_phase(phase)
        code = base.clean_code(code)
        self._class(code, key or "")
        self._run("phase", [_k("class", code), _k("stops", code)], [phase])
        self._forget(code)
        return self._state(code)

    def _round(self, code: str, stop: str, example: int, rnd: int) -> str:
        return f"{stop}|{int(example)}|{int(rnd)}"

    def vote(self, code, student, stop, example, rnd, choice) -> None:
        code = base.clean_code(code)
        tail = self._round(code, stop, example, rnd)
        keys = [
            _k("class", code),
            _k("stops", code),
            _k("students", code),
            _k("votes", code, tail),
            _k("changes", code, tail),
            _k("keys", code),
        ]
        args = [str(student), stop, int(example), int(rnd), str(choice), base.MAX_CHANGES]
        self._run("vote", keys, args)

    def my_vote(self, code, student, stop, example, rnd) -> str | None:
        tail = self._round(base.clean_code(code), stop, example, rnd)
        with self._io():
            return self.r.hget(_k("votes", base.clean_code(code), tail), str(student))

    def counts(self, code, stop, example, rnd) -> dict[str, int]:
        tail = self._round(base.clean_code(code), stop, example, rnd)
        with self._io():
            votes = self.r.hvals(_k("votes", base.clean_code(code), tail))
        out: dict[str, int] = {}
        for choice in votes:
            out[choice] = out.get(choice, 0) + 1
        return out

    def summary(self, code, key) -> list[StopSummary]:
        code = base.clean_code(code)
        self._class(code, key or "")
        with self._io():
            stops = self.r.hgetall(_k("stops", code))
        out = []
        for field, raw in sorted(stops.items(), key=lambda kv: json.loads(kv[1])["order"]):
            entry = json.loads(raw)
            if entry["phase"] == NONE:
                continue
            stop, example = field.rsplit("|", 1)
            counts = tuple(self.counts(code, stop, int(example), r) for r in (1, 2))
            out.append(StopSummary(stop, int(example), entry["phase"], entry["right"], counts))
        return out

    def end(self, code, key) -> None:
        code = base.clean_code(code)
        self._class(code, key or "")
        with self._io():
            kinds = ("class", "stops", "students", "keys")
            self.r.delete(*self.r.smembers(_k("keys", code)), *(_k(k, code) for k in kinds))
            self.r.zrem("av:classes", code)
        self._forget(code)

    def purge(self) -> int:
        """Redis deletes an expired class's keys itself; this drops it from the cap's set."""
        with self._io():
            return self.r.zremrangebyscore("av:classes", "-inf", int(time.time() * 1000))

    def class_keys(self) -> list[str]:
        """Every key that belongs to a class (for tests: what expiry leaves)."""
        with self._io():
            return [k for k in self.r.scan_iter("av:*") if not k.startswith("av:guess:")]
