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


def _reduced(tick: int, loss: float) -> dict:
    """One record of a trainer that reduces every key over the tick to ``{num, mean, std}``."""
    stat = lambda v, n=1: {"num": n, "mean": v, "std": 0.0}  # noqa: E731
    return {"Loss/total": stat(loss, 4096), "Progress/tick": stat(float(tick)), "Progress/kimg": stat(tick * 2.5),
            "Resources/gpu_mem_gb": stat(7.25), "timestamp": 1900000000.0 + 60 * tick}


def test_reduced_statistics_are_read_at_their_mean_and_the_sections_tick_is_the_step(tmp_path):
    lines = [json.dumps(_reduced(k, round(0.9 - k / 20, 3))) for k in range(4)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(0, 0.9), (1, 0.85), (2, 0.8), (3, 0.75)]
    names = {r["name"] for r in log.metrics.to_pylist()}
    assert not any(n.endswith(("_num", "_std", "_mean")) for n in names)  # a statistic is one value, not three
    assert not any("tick" in n for n in names)  # the step is no series of its own


def test_a_dict_with_other_keys_than_a_statistics_is_still_flattened(tmp_path):
    lines = [json.dumps({"step": k, "loss": {"total": 1.0 - k / 10, "mean": 0.5, "kl": 0.01}}) for k in (1, 2)]
    names = {r["name"] for r in parse_log(write_log(tmp_path, lines)).metrics.to_pylist()}
    assert any("kl" in n for n in names)
