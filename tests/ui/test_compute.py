"""ui.compute: concurrent misses of one config are computed once per process (single
flight), no more than MAX_HEAVY computations run at once, and each is logged."""

import importlib
import threading
import time
from dataclasses import dataclass

import ui

compute_module = importlib.import_module("ui.compute")  # the module, not ui.compute the function


@dataclass(frozen=True)
class Cfg:
    n: int


calls: list[int] = []
running = [0, 0]  # now, peak
guard = threading.Lock()


def slow_square(cfg: Cfg) -> int:
    with guard:
        calls.append(cfg.n)
        running[0] += 1
        running[1] = max(running)
    time.sleep(0.3)
    with guard:
        running[0] -= 1
    return cfg.n * cfg.n


def run_at_once(cfgs: list[Cfg]) -> list[int]:
    results = [0] * len(cfgs)

    def one(k: int) -> None:
        results[k] = ui.compute(slow_square, cfgs[k])

    threads = [threading.Thread(target=one, args=(k,)) for k in range(len(cfgs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_forty_sessions_asking_for_one_new_setting_compute_it_once(caplog):
    calls.clear()
    with caplog.at_level("INFO", logger=compute_module.log.name):
        assert run_at_once([Cfg(7)] * 40) == [49] * 40
    assert calls == [7]
    lines = [r.getMessage() for r in caplog.records if r.name == compute_module.log.name]
    assert len(lines) == 1 and lines[0].startswith("computed slow_square in ")
    assert lines[0].endswith("Cfg(n=7)")


def test_different_settings_run_at_most_max_heavy_at_once():
    calls.clear()
    running[1] = 0
    assert run_at_once([Cfg(k) for k in range(100, 106)]) == [k * k for k in range(100, 106)]
    assert sorted(calls) == list(range(100, 106))
    assert running[1] == compute_module.MAX_HEAVY


def test_a_live_run_takes_a_heavy_slot_for_each_step_and_lets_it_go_between():
    started = threading.Event()

    def steps():
        for k in range(3):
            started.set()
            yield k

    for _ in range(compute_module.MAX_HEAVY):  # every slot busy with other sessions' runs
        compute_module._heavy.acquire()
    got: list[int] = []
    between: list[bool] = []  # whether a slot was free while each step was drawn
    free = threading.Event()

    def race() -> None:
        for k in ui.in_turn(steps()):
            got.append(k)
            between.append(compute_module._heavy.acquire(blocking=False))
            if between[-1]:
                compute_module._heavy.release()
        free.set()

    worker = threading.Thread(target=race)
    worker.start()
    assert not started.wait(0.3)  # no slot: the first step has not begun
    compute_module._heavy.release()
    assert free.wait(10)
    worker.join()
    for _ in range(compute_module.MAX_HEAVY - 1):
        compute_module._heavy.release()
    assert got == [0, 1, 2] and all(between)


def test_only_a_miss_runs_under_a_spinner_and_each_run_keeps_its_latest(monkeypatch):
    spun: list[str] = []
    real = compute_module.st.spinner

    def spinner(text, **kwargs):
        spun.append(text)
        return real(text, **kwargs)

    monkeypatch.setattr(compute_module.st, "spinner", spinner)

    def square(cfg: Cfg) -> int:
        return cfg.n * cfg.n

    asked = [1, 2, 1, 1, 3, 2, 4, 1]
    got = [ui.compute(square, Cfg(n), max_entries=2) for n in asked]
    assert got == [n * n for n in asked]
    assert len(spun) == 6  # hits: the second and third 1 (then 3 and 2 push 1 out)
