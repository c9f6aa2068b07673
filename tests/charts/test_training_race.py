"""Training race chart: loss (left) and accuracy (right) per step, one colour per norm."""

import json

import numpy as np
import pandas as pd

from attnviz.charts import training_race as charts
from attnviz.charts.depth_gradients import NORM_COLOURS

from ..app.helpers import decode


def test_loss_left_accuracy_right_one_legend_entry_per_norm():
    steps = np.arange(1, 6)
    history = pd.concat(
        pd.DataFrame({"step": steps, "norm": n, "loss": 2.0 / steps + k, "accuracy": 0.1 * steps})
        for k, n in enumerate(("post", "pre"))
    )
    names = {"post": "Post-LN", "pre": "Pre-LN"}
    fig = json.loads(charts.race(history, names=names, titles=("L", "A"), x_title="t").to_json())
    assert [(t["name"], t["xaxis"]) for t in fig["data"]] == [
        ("Post-LN", "x"),
        ("Post-LN", "x2"),
        ("Pre-LN", "x"),
        ("Pre-LN", "x2"),
    ]
    assert [t["showlegend"] for t in fig["data"]] == [True, False, True, False]
    for trace in fig["data"]:
        norm = "post" if trace["name"] == "Post-LN" else "pre"
        part = history[history.norm == norm]
        value = "loss" if trace["xaxis"] == "x" else "accuracy"
        np.testing.assert_array_equal(decode(trace["x"]), steps)
        np.testing.assert_array_equal(decode(trace["y"]), part[value].to_numpy(np.float32))
        assert trace["line"]["color"] == NORM_COLOURS[norm] and trace["legendgroup"] == norm
    assert fig["layout"]["yaxis2"]["range"] == [0, 1.02]
    assert [fig["layout"][x]["title"]["text"] for x in ("xaxis", "xaxis2")] == ["t", "t"]
    assert [a["text"] for a in fig["layout"]["annotations"]] == ["L", "A"]
