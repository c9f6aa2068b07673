"""A classroom against one server: K sessions at once, each opening pages and changing
controls, with an isolation check. Used by tests/load (K = 5) and bench/bench_classroom.py.

Session ``i`` follows scenario ``i % M``; a scenario is deterministic (its widget choices
come from a seeded RNG and the widgets the page drew), so every session of a scenario must
see exactly what a lone session replaying the scenario afterwards sees, step by step. A
change leaking from another session (a module global, a shared cache entry mutated in
place, a wrong session's state) breaks that equality.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.load.stclient import Session, next_value
from ui.navigation import SCRIPTS

ROOT = Path(__file__).resolve().parents[2]


def app_pages() -> list[str]:
    """The URL paths of the app's pages (home first)."""
    return list(SCRIPTS)


@dataclass
class Step:
    page: str
    action: str
    fingerprint: str
    seconds: float
    error: str = ""


@dataclass
class Result:
    steps: dict = field(default_factory=dict)  # session index -> [Step]
    references: dict = field(default_factory=dict)  # scenario -> [fingerprint]
    solo: list = field(default_factory=list)  # latencies of the lone replays
    wall: float = 0.0

    def latencies(self) -> list[float]:
        return [s.seconds for steps in self.steps.values() for s in steps if not s.error]

    def errors(self) -> list[str]:
        return [
            f"session {i} {s.page} {s.action}: {s.error}"
            for i, steps in self.steps.items()
            for s in steps
            if s.error
        ]

    def leaks(self, m: int) -> list[str]:
        """Steps whose view differs from the lone replay of the same scenario."""
        out = []
        for i, steps in self.steps.items():
            ref = self.references.get(i % m, [])
            if len(ref) != len(steps):
                out.append(f"session {i}: {len(steps)} steps, its lone replay {len(ref)}")
            for j, s in enumerate(steps):
                if s.error:
                    continue
                if j >= len(ref) or ref[j] != s.fingerprint:
                    out.append(f"session {i} step {j} ({s.page} {s.action})")
        return out

    def summary(self) -> dict:
        lat = sorted(self.latencies())
        q = statistics.quantiles(lat, n=20) if len(lat) >= 2 else lat * 19
        return {
            "interactions": len(lat),
            "p50_s": statistics.median(lat) if lat else 0.0,
            "p95_s": q[18] if lat else 0.0,
            "max_s": lat[-1] if lat else 0.0,
            "errors": len(self.errors()),
            "wall_s": self.wall,
        }


async def scenario(
    url: str,
    sc: int,
    pages: list[str],
    steps: int,
    think: tuple,
    max_frac: float,
    locale: str,
    seed: int,
) -> list[Step]:
    """One visitor: open each page, then change ``steps`` controls on it, one at a time."""
    rng_think = random.Random(f"{seed}-{sc}-{time.perf_counter()}")
    out: list[Step] = []
    s = Session(url, locale=locale)
    try:
        await s.open()
        for page in pages:
            rng = random.Random(f"{seed}-{sc}-{page}")  # the same choices for a scenario
            action, view = "open", None
            for k in range(steps + 1):
                if k:
                    await asyncio.sleep(rng_think.uniform(*think))
                    wid = rng.choice(sorted(view.widgets))
                    kind, proto = view.widgets[wid]
                    field_, value = next_value(kind, proto, rng, max_frac)
                    s.set(wid, field_, value)
                    action = f"{wid.rsplit('-', 1)[-1]}={value}"
                try:
                    view = await s.run(page)
                except Exception as exc:  # timeout, closed socket: an error of this step
                    out.append(Step(page, action, "", 0.0, f"{type(exc).__name__}: {exc}"))
                    return out
                err = "; ".join(view.exceptions)
                if view.status not in (0, None) and not err:
                    err = f"script status {view.status}"
                out.append(Step(page, action, view.fingerprint, view.seconds, err))
                if not view.widgets:
                    break
    finally:
        await s.close()
    return out


def plan(i: int, pages: list[str], per_session: int) -> list[str]:
    """Scenario ``i``'s pages: a rotation over all pages, so scenarios cover every page."""
    if not pages:
        return []
    n = min(per_session, len(pages))
    return [pages[(i * n + j) % len(pages)] for j in range(n)]


async def classroom(
    url: str,
    k: int,
    m: int,
    pages: list[str],
    per_session: int = 2,
    steps: int = 3,
    think: tuple = (0.5, 2.0),
    stagger: float = 2.0,
    max_frac: float = 0.25,
    seed: int = 0,
) -> Result:
    """K concurrent sessions (scenarios 0..M-1), then one lone replay per scenario."""
    res = Result()
    locales = ["en-US", "ja-JP"]

    async def one(i: int):
        await asyncio.sleep(random.Random(i).uniform(0, stagger))
        sc = i % m
        res.steps[i] = await scenario(
            url, sc, plan(sc, pages, per_session), steps, think, max_frac, locales[sc % 2], seed
        )

    t0 = time.perf_counter()
    await asyncio.gather(*(one(i) for i in range(k)))
    res.wall = time.perf_counter() - t0
    for sc in range(m):  # lone replays, one at a time, no think time
        ref = await scenario(
            url, sc, plan(sc, pages, per_session), steps, (0, 0), max_frac, locales[sc % 2], seed
        )
        res.references[sc] = [s.fingerprint for s in ref]
        res.solo += [s.seconds for s in ref if not s.error]
    return res
