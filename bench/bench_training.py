"""The training race at default settings and the depth-24 gradient computation.

Prints the race's wall time and steps/s at the page's defaults (reverse, L = 6, lr = 1e-2,
no warm-up, 200 steps, both models), the depth-24 per-layer gradients (post + pre) at the
depth page's widths, and as the reference measured in the same run one plain PyTorch
training step of the same pre-LN model (nn.TransformerEncoderLayer, norm_first=True), so
the figures can be read as ratios. Targets on 2 CPU cores: race ≤ 30 s.

Pace: seconds per race step against the number of blocks, fitted, beside the constants
behind the page's "about N s".

Recording: the race's wall time with and without its frames (the probe's maps), same
run, alternated, at the defaults and at L = 12, 600 steps (target: within 10 %), and the
bytes a session keeps for the largest race (L = 12, H = 2, 600 steps; target < 20 MB).
``claims`` instead prints the pattern scores behind the page's explanation; ``quick`` (what
tools/gpu-check.sh runs on each device) times recording at the defaults only, with 2 pairs,
and leaves out the L = 12 race and the session's bytes, which no device changes.

    python -m bench.bench_training [claims | quick]
"""

import pickle
import statistics
import sys
import time

import numpy as np
import torch
from torch import nn

from attnviz.device import resolve_device
from attnviz.lessons import depth_gradients as depth
from attnviz.lessons import depth_model
from attnviz.lessons import training_race as training
from attnviz.lessons.threads import THREADS
from attnviz.lessons.training_race import config as race_config
from attnviz.lessons.training_race import frames as race_frames
from attnviz.lessons.training_race import results as race_results
from attnviz.lessons.training_race import tasks as race_tasks
from bench.bench_race_memory import record_bytes


def reference_steps_per_second(cfg: race_config.Config, steps: int = 30) -> float:
    """A stock PyTorch encoder of the same size, trained on the same task on the same device
    as the race (steps/s)."""
    device = resolve_device(many_small_kernels=True)
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(
        cfg.D, cfg.H, 4 * cfg.D, dropout=0.0, batch_first=True, norm_first=True
    )
    model = nn.Sequential(
        nn.Embedding(cfg.vocab, cfg.D),
        nn.TransformerEncoder(layer, cfg.L, enable_nested_tensor=False),
        nn.Linear(cfg.D, cfg.vocab),
    ).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    g = torch.Generator().manual_seed(0)
    t0 = time.perf_counter()
    for _ in range(steps):
        x, y = (t.to(device) for t in race_tasks.make_batch(cfg.task, cfg, g))
        loss = nn.functional.cross_entropy(model(x).reshape(-1, cfg.vocab), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    if device.type == "cuda":
        torch.cuda.synchronize()
    return steps / (time.perf_counter() - t0)


def race_seconds(cfg: race_config.Config, record: bool) -> tuple[float, float, list]:
    """Wall time of one race as the page runs it, with or without recording its frames, and
    the part of it spent recording (the probe's forward passes and their storage)."""
    frames = race_frames.Frames(cfg) if record else None
    inner, spent = training._weights, [0.0]

    def timed(*args):
        t0 = time.perf_counter()
        try:
            return inner(*args)
        finally:
            spent[0] += time.perf_counter() - t0

    training._weights = timed
    try:
        t0 = time.perf_counter()
        records = list(training.race(cfg, {}, frames))
        seconds = time.perf_counter() - t0
    finally:
        training._weights = inner
    return seconds, spent[0], records


def pace() -> None:
    """Seconds per race step against L, fitted as a + b·L over L = 1, 2, 6, 12 (100 steps
    each, after a warm-up race), beside race_config's constants that the page quotes."""
    race_seconds(race_config.Config(L=2, steps=30), record=True)
    depths = (1, 2, 6, 12)
    per_step = [race_seconds(race_config.Config(L=L, steps=100), True)[0] / 100 for L in depths]
    b, a = np.polyfit(depths, per_step, 1)
    measured = ", ".join(f"L={L} {s * 1e3:.1f} ms" for L, s in zip(depths, per_step, strict=True))
    print(
        f"race step (both models): {measured}; fit {a * 1e3:.2f} + {b * 1e3:.2f}·L ms, "
        f"race_config {race_config.SECONDS_PER_STEP * 1e3:.2f} + "
        f"{race_config.SECONDS_PER_LAYER_STEP * 1e3:.2f}·L ms"
    )


def recording_overhead(cfg: race_config.Config, pairs: int) -> None:
    """Alternate races without and with recording; print the medians and their ratio, and
    the share of the recorded races' time spent recording (robust to a changing load)."""
    times: dict[bool, list[float]] = {False: [], True: []}
    shares, losses = [], {}
    for i in range(pairs):
        for record in (False, True) if i % 2 == 0 else (True, False):
            seconds, spent, records = race_seconds(cfg, record)
            times[record].append(seconds)
            shares += [spent / seconds] if record else []
            losses[record] = [r.loss for r in records]
    off, on = statistics.median(times[False]), statistics.median(times[True])
    frames = len(race_frames.frame_steps(cfg.steps))
    print(
        f"race L={cfg.L}, {cfg.steps} steps, {frames} frames: {off:.2f} s without recording, "
        f"{on:.2f} s with (median of {pairs}); ratio {on / off:.3f}; recording's share of "
        f"the recorded races' time {statistics.median(shares):.1%} (so without it "
        f"{1 / (1 - statistics.median(shares)):.3f}x faster); "
        f"same losses: {losses[False] == losses[True]}"
    )


def session_bytes(cfg: race_config.Config) -> None:
    """What the page keeps in session state for one finished race: records and frames."""
    frames = race_frames.Frames(cfg)
    records = list(training.race(cfg, {}, frames))
    kept = frames.nbytes + sum(record_bytes(r) for r in records)
    state = dict(cfg=cfg, records=records, frames=frames, done=True)
    print(
        f"session state, L={cfg.L}, H={cfg.H}, {cfg.steps} steps: {kept / 1e6:.2f} MB "
        f"(frames' arrays {frames.nbytes / 1e6:.2f} MB: {frames.count} frames of uint8 maps; "
        f"{len(records)} step records); pickled {len(pickle.dumps(state)) / 1e6:.2f} MB"
    )


def claims() -> None:
    """Pattern scores at the end of races: the numbers behind the page's explanation."""
    settings = [
        ("reverse", 1, 1e-2, 40, False),
        ("reverse", 2, 3e-3, 300, False),
        ("reverse", 6, 1e-2, 200, False),
        ("reverse", 6, 1e-2, 200, True),
        ("copy", 1, 1e-2, 60, False),
        ("copy", 2, 3e-3, 300, False),
        ("copy", 6, 1e-2, 200, False),
        ("sort", 2, 1e-2, 200, False),
        ("sort", 2, 3e-3, 300, False),
    ]
    for task, L, lr, steps, warmup in settings:
        for seed in (0, 1, 2):
            cfg = race_config.Config(task=task, L=L, lr=lr, steps=steps, warmup=warmup, seed=seed)
            r = training.run(cfg)
            s, last = r.frames.scores, r.frames.count - 1
            line = f"{task:7s} L={L} lr={lr:g} {steps} steps warmup={warmup!s:5s} seed={seed}"
            for norm, (loss, acc) in race_results.summary(r.records).items():
                first = np.round(s[norm][[0, last], 0].astype(float), 2).tolist()  # layer 1
                later = np.round(s[norm][last, 1:].max(-1).astype(float), 2).tolist()
                line += f"\n   {norm}: loss {loss:.3f} acc {acc:.2f} layer 1 {first[0]} -> "
                line += f"{first[1]}, later layers' best {later}"
            print(line, flush=True)


def main() -> None:
    torch.set_num_threads(THREADS)
    if sys.argv[1:] == ["claims"]:
        claims()
        return
    quick = sys.argv[1:] == ["quick"]
    device, threads = resolve_device(many_small_kernels=True), torch.get_num_threads()
    print(f"device: {device}, torch {torch.__version__}, threads {threads}")
    pace()
    recording_overhead(race_config.Config(steps=200), pairs=2 if quick else 8)
    if not quick:
        recording_overhead(race_config.Config(L=12, steps=600), pairs=2)
        session_bytes(race_config.Config(L=12, H=2, steps=600))
    cfg = race_config.Config(steps=200)
    t0 = time.perf_counter()
    records = training.run(cfg).records
    race_s = time.perf_counter() - t0
    ours = cfg.steps / race_s  # one step = one update of each of the two models
    ref = reference_steps_per_second(cfg)
    print(
        f"race defaults ({cfg.task}, L={cfg.L}, lr={cfg.lr}, warmup={cfg.warmup}, "
        f"{cfg.steps} steps, D={cfg.D}): {race_s:.2f} s wall, {ours:.1f} race steps/s"
    )
    print(
        f"  reference: torch encoder, one model: {ref:.1f} steps/s; "
        f"throughput ratio (2 models x race steps/s / reference) = {2 * ours / ref:.2f}"
    )
    print(
        "  final (loss, accuracy):",
        {k: tuple(round(v, 3) for v in s) for k, s in race_results.summary(records).items()},
    )
    for D in (128, 512):
        t0 = time.perf_counter()
        for norm, grads in depth_model.layer_gradients(24, D, 0).items():
            g = grads["W_2"]
            print(f"  D={D} {norm}-LN W_2 grad norm, layer 1 / 24: {g[0]:.3f} / {g[-1]:.3f}")
        print(f"depth-24 gradients, post + pre, D={D}: {time.perf_counter() - t0:.2f} s")
    t0 = time.perf_counter()
    trend = depth.trend(depth.TrendConfig(D=512, seeds=3)).spread
    print(
        f"last-layer trend at D=512, 3 seeds, L in {depth.TREND_DEPTHS}: "
        f"{time.perf_counter() - t0:.1f} s"
    )
    print(trend.pivot(index="L", columns="norm", values="mean").round(3).to_string())


if __name__ == "__main__":
    main()
