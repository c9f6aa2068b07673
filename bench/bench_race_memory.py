"""Memory of a classroom racing at once: K recorded training races in one process.

    python -m bench.bench_race_memory [--k 40] [--L 12] [--steps 600] [--run 60]

Streamlit runs each session's script in a thread of one server process, so K students
pressing Start together are K threads each running the race loop as the page does
(``training_race.race`` with ``Frames``), each keeping its records and frames as its
session would. The threads start together and run ``--run`` steps of a ``--steps``-step
race: everything a race allocates (both models, Adam's moments, the autograd graph of a
step, the frames' arrays for all ``--steps``) is live by then; the records still to come
are added from their measured size. Prints the process's RSS before (after one warm-up
race), its peak while the K races run (VmHWM, reset before they start), the peak per race,
and the estimate for K full races against a 3 GiB replica.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path

from attnviz.lessons import training_race as training
from attnviz.lessons.training_race import config as race_config
from attnviz.lessons.training_race import frames as race_frames
from attnviz.lessons.training_race import results as race_results

REPLICA = 3 * 2**30  # bytes of memory of one replica (deploy/k8s.yaml's limit)


def rss(field: str = "VmRSS") -> int:
    """The process's resident set (or its peak, ``VmHWM``) in bytes, from /proc."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"{field} not in /proc/self/status")


def reset_peak() -> bool:
    """Reset VmHWM to the current RSS (Linux: write 5 to clear_refs); False if refused."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return False
    return True


def record_bytes(rec: race_results.StepRecord) -> int:
    """Bytes one kept ``StepRecord`` holds: the object, its two dicts, their floats, the step."""
    floats = [*rec.loss.values(), *rec.acc.values()]
    parts = [rec, rec.loss, rec.acc, rec.step, *floats]
    return sum(sys.getsizeof(x) for x in parts)


def session(cfg: race_config.Config, run: int, start: threading.Barrier, kept: list) -> None:
    """One student's race as the page runs it, stopped after ``run`` steps; its state kept."""
    frames, records = race_frames.Frames(cfg), []
    state = dict(cfg=cfg, records=records, frames=frames, done=False)
    start.wait()
    race = training.race(cfg, {}, frames)
    for rec in race:
        records.append(rec)
        if rec.step == run:
            break
    race.close()
    kept.append(state)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--k", type=int, default=40)
    ap.add_argument("--L", type=int, default=12)
    ap.add_argument("--steps", type=int, default=600)
    ap.add_argument("--run", type=int, default=60)
    args = ap.parse_args()
    cfg = race_config.Config(L=args.L, steps=args.steps)
    warm = race_config.Config(L=args.L, steps=20)
    warm_records = list(training.race(warm, {}, race_frames.Frames(warm)))  # one-off allocations
    record = record_bytes(warm_records[-1])
    before = rss()
    peak_reset = reset_peak()
    kept: list = []
    start = threading.Barrier(args.k)
    threads = [
        threading.Thread(target=session, args=(cfg, args.run, start, kept)) for _ in range(args.k)
    ]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seconds = time.perf_counter() - t0
    peak, after = rss("VmHWM"), rss()
    per_race = (peak - before) / args.k
    rest = args.k * (args.steps - args.run) * record  # records the full races would add
    estimate = peak + rest
    print(
        f"{args.k} concurrent recorded races (L={cfg.L}, H={cfg.H}, D={cfg.D}, "
        f"{args.steps}-step config, {args.run} steps each run in {seconds:.0f} s)"
    )
    print(f"  RSS before: {before / 2**20:.0f} MiB (torch loaded, one warm-up race)")
    print(
        f"  peak RSS while racing: {peak / 2**20:.0f} MiB"
        f"{'' if peak_reset else ' (VmHWM not reset: includes earlier peaks)'}; "
        f"after, states kept: {after / 2**20:.0f} MiB; peak per race {per_race / 2**20:.1f} MiB"
    )
    frames = kept[0]["frames"]
    print(
        f"  per session kept: frames {frames.nbytes / 2**20:.2f} MiB, records "
        f"{record:.0f} B/step ({args.steps * record / 2**20:.2f} MiB for {args.steps} steps)"
    )
    print(
        f"  estimate for {args.k} full races: {estimate / 2**20:.0f} MiB "
        f"= {estimate / REPLICA:.0%} of a 3 GiB replica"
    )


if __name__ == "__main__":
    main()
