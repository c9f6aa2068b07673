"""A class of K = 120 voting on the tour through HAProxy, two replicas sharing one SQLite file
(or one Redis server, ``--redis``), one replica killed when half the class has voted.

    python3 -m bench.bench_votes [--k 120] [--spread 4] [--idle 40] [--no-kill] [--redis]

The students are tests/load/votes.py's light clients: each joins by the student link, polls
the page's fragment as the browser does, votes once within ``--spread`` seconds and waits for
its screen to confirm it; the teacher's screen (the tour, presentation mode) polls its count.

Prints JSON: votes_per_s (confirmed votes over first sent → last confirmed), voted_within_s,
p50/p95/max from a vote sent to the student's screen confirming it, last_vote_to_teacher_count_s
(the last confirmation → the teacher's screen showing K), lost_confirmed_votes after the
kill, follow_p95_s / follow_max_s (the teacher closes round 1 → every screen redrawn), and the
idle cost: the replicas' CPU with K students idle on a stop, polling, above the same replicas
with nobody polling, per 100 students; with the load average and this client's own CPU.
Targets (issue 49): within 5 s, teacher ≤ 2 s, 0 lost, follow ≤ 2 s, idle < 10 % of a core
per 100 students.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.load.votes import lesson, open_pair  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--k", type=int, default=120)
    ap.add_argument("--spread", type=float, default=4.0, help="seconds the votes are sent over")
    ap.add_argument("--idle", type=float, default=40.0, help="seconds of idle polling measured")
    ap.add_argument("--no-kill", action="store_true")
    ap.add_argument("--redis", action="store_true", help="a throwaway redis-server as the store")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        logs = Path(tmp)
        redis = None
        if args.redis:
            from tests.classroom.conftest import start_redis

            redis, url = start_redis(logs)
        else:
            url = f"sqlite:///{logs}/classes.sqlite3"
        os.environ["ATTNVIZ_STORE"] = url
        campus = open_pair(logs, url)
        try:
            load0, c0 = os.getloadavg()[0], time.process_time()
            res = asyncio.run(
                asyncio.wait_for(
                    lesson(campus, args.k, args.spread, kill=not args.no_kill, idle_s=args.idle),
                    timeout=600,
                )
            )
            out = res.summary() | {
                "store": url.split(":", 1)[0],
                "load_avg_1min_before_after": [round(load0, 2), round(os.getloadavg()[0], 2)],
                "client_cpu_s": round(time.process_time() - c0, 1),
                "first_errors": res.errors[:5],
                "server_errors": campus.server_errors()[:5],
            }
            print(json.dumps(out, indent=2, ensure_ascii=False))
        finally:
            campus.close()
            if redis:
                redis.terminate()


if __name__ == "__main__":
    main()
