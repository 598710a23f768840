"""Horovod's synthetic benchmark (mpirun tags) and Colossal-AI's GPT demo."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.operators.logs import parse_log

SAMPLES = Path(__file__).resolve().parents[2] / "pipelines" / "samples" / "logs"


def test_horovod_benchmark():
    parsed = parse_log(SAMPLES / "horovod_resnet50_synthetic.log")
    assert parsed.records[0]["line_prefix"] == "mpirun"
    assert len(parsed.series("samples_per_s_per_gpu")) == 10
    assert parsed.series("samples_per_s") == [(9, pytest.approx(19318.4))]
    run = parsed.run
    assert (run["model"], run["world_size"], run["global_batch_size"], run["status"]) == (
        "ResNet-50",
        16,
        1024,
        "completed",
    )
    assert ("model", "ResNet-50") in {(e["type"], e["name"]) for e in parsed.entities}


def test_colossalai_demo():
    parsed = parse_log(SAMPLES / "colossalai_gpt_demo.log")
    run = parsed.run
    assert (run["framework"], run["world_size"], run["dp"], run["tp"], run["pp"]) == (
        "Colossal-AI",
        8,
        4,
        2,
        1,
    )
    assert parsed.series("loss")[0] == (1, pytest.approx(10.59))
    assert all(2100 <= v <= 2200 for _, v in parsed.series("step_time_ms"))
    assert dict(parsed.series("memory_mb"))[3] == pytest.approx(17503.0)  # the higher of the step's reports
    assert run["status"] == "completed"  # reached [10/10]
