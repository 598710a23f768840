"""A JSON lines log whose step is under a key the step table knows by its words (``current_steps``,
``num_updates``), not one of the usual names: each object is a record at that step, and the key is no series.
A fine-tuning callback's ``{"current_steps": N, "total_steps": M, ...}`` names its tool. Through ``parse_log``."""

from __future__ import annotations

import json

from log_files import write_log

from assay.operators.logs import parse_log


def test_a_step_under_a_key_named_by_its_words(tmp_path):
    lines = [
        json.dumps({"current_steps": k, "total_steps": 900, "loss": round(1.0 - k / 100, 3), "lr": 1e-5,
                    "epoch": k / 900, "percentage": round(k / 9, 2), "elapsed_time": "0:01:03"})
        for k in (1, 2, 3, 4)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(1, 0.99), (2, 0.98), (3, 0.97), (4, 0.96)]
    assert "current_steps" not in {r["name"] for r in log.metrics.to_pylist()}
    assert log.run["framework"] == "LLaMA-Factory"


def test_num_updates_steps_a_record(tmp_path):
    lines = [json.dumps({"num_updates": 100 * k, "loss": 3.0 - k / 10, "wps": 1200.0}) for k in (1, 2, 3)]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [100, 200, 300]
