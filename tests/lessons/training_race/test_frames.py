"""What a training race records: frame steps, uint8 maps and pattern scores, their table."""

import numpy as np

from attnviz.lessons import training_race as training
from attnviz.lessons.training_race import config as race_config
from attnviz.lessons.training_race import frames as race_frames
from attnviz.lessons.training_race import tasks as race_tasks


def test_frame_steps_are_bounded_and_denser_early():
    for steps in (10, 20, 200, 600):
        s = race_frames.frame_steps(steps)
        assert s[0] == 0 and s[-1] == steps and np.all(np.diff(s) > 0)
        assert len(s) <= min(race_frames.MAX_FRAMES, steps // 4 + 1)
        assert np.diff(s)[0] <= np.diff(s)[-1]  # denser early


def test_frames_store_uint8_maps_within_half_a_level():
    cfg = race_config.Config(L=2, H=2, steps=20)
    frames = race_frames.Frames(cfg, steps=[0, 5])
    rng = np.random.default_rng(0)
    w = rng.dirichlet(np.ones(cfg.n), size=(cfg.L, cfg.H, cfg.n)).astype(np.float32)
    frames.add({"post": w, "pre": None})
    assert frames.count == 1 and frames.maps["post"].dtype == np.uint8
    assert np.abs(frames.decode(0, "post") - w).max() <= 1 / 510 + 1e-7
    want = race_tasks.pattern_scores(w, frames.target)
    np.testing.assert_allclose(frames.scores["post"][0], want)
    assert frames.alive["post"][0] and not frames.alive["pre"][0]
    layer, head, score = frames.best(0, "post")
    assert score == frames.scores["post"][0].max() == frames.scores["post"][0, layer - 1, head - 1]
    assert frames.best(0, "pre") is None
    assert np.isnan(frames.scores["pre"][0]).all() and not frames.maps["pre"][0].any()
    assert frames.nbytes >= 2 * 2 * cfg.L * cfg.H * cfg.n**2  # two frames of two models


def test_score_table_has_a_row_per_frame_norm_layer_and_head():
    cfg = race_config.Config(task="sort", L=2, steps=12)
    frames = training.run(cfg).frames
    table = race_frames.score_table(frames)
    assert len(table) == frames.count * 2 * cfg.L * cfg.H
    row = table[(table["norm"] == "pre") & (table["layer"] == 2) & (table["head"] == 1)]
    np.testing.assert_array_equal(row["step"], frames.steps[: frames.count])
    np.testing.assert_allclose(row["score"], frames.scores["pre"][: frames.count, 1, 0])


def test_every_recorded_map_is_rows_of_weights_each_averaging_1_over_n():
    """Each decoded row of every head's map sums to 1 within n/510 (n entries, each within
    1/510 of its weight), so a map averages 1/n: before a race (the page's maps) and at every
    frame recorded during one."""
    cfg = race_config.Config(task="reverse", L=2, steps=12)
    frames = training.run(cfg).frames
    for recorded in (training.initial(cfg), frames):
        for f in range(recorded.count):
            for norm in training.NORMS:
                assert recorded.alive[norm][f]
                rows = recorded.decode(f, norm).sum(-1)  # (L, H, n)
                assert np.abs(rows - 1).max() <= cfg.n / 510 + 1e-6, (f, norm)
                assert abs(recorded.decode(f, norm).mean() - 1 / cfg.n) <= 1 / 510 + 1e-6
