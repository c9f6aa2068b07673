"""The training race at default settings and the depth-24 gradient computation.

Prints the race's wall time and steps/s at the page's defaults (reverse, L = 6, lr = 1e-2,
no warm-up, 200 steps, both models), the depth-24 per-layer gradients (post + pre) at the
depth page's widths, and as the reference measured in the same run one plain PyTorch
training step of the same pre-LN model (nn.TransformerEncoderLayer, norm_first=True), so
the figures can be read as ratios. Targets on 2 CPU cores: race ≤ 30 s.

    python -m bench.bench_training
"""

import time

import torch
from torch import nn

from attnviz.lessons import depth_gradients as depth
from attnviz.lessons import training_race as training


def reference_steps_per_second(cfg: training.Config, steps: int = 30) -> float:
    """A stock PyTorch encoder of the same size, trained on the same task (steps/s)."""
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(
        cfg.D, cfg.H, 4 * cfg.D, dropout=0.0, batch_first=True, norm_first=True
    )
    model = nn.Sequential(
        nn.Embedding(cfg.vocab, cfg.D),
        nn.TransformerEncoder(layer, cfg.L, enable_nested_tensor=False),
        nn.Linear(cfg.D, cfg.vocab),
    )
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    g = torch.Generator().manual_seed(0)
    t0 = time.perf_counter()
    for _ in range(steps):
        x, y = training.make_batch(cfg.task, cfg, g)
        loss = nn.functional.cross_entropy(model(x).reshape(-1, cfg.vocab), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    return steps / (time.perf_counter() - t0)


def main() -> None:
    torch.set_num_threads(training.THREADS)
    cfg = training.Config(steps=200)
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
        {k: tuple(round(v, 3) for v in s) for k, s in training.summary(records).items()},
    )
    for D in (128, 512):
        t0 = time.perf_counter()
        for norm in depth.NORMS:
            g = depth.layer_gradients(norm, 24, D, 0)["W_2"]
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
