"""DeepSpeed logs: engine step lines, throughput timer, flops profiler, overflow, pipeline engine, SLURM cancel."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.operators.logs import parse_log

SAMPLES = Path(__file__).resolve().parents[2] / "pipelines" / "samples" / "logs"


def test_zero3_run():
    parsed = parse_log(SAMPLES / "deepspeed_zero3.log")
    run = parsed.run
    assert (run["framework"], run["status"]) == ("DeepSpeed", "completed")
    assert (run["world_size"], run["micro_batch_size"], run["global_batch_size"], run["hardware"]) == (
        8,
        16,
        256,
        "H100",
    )
    # 256 = 16 per GPU x 2 accumulation steps x 8 ranks: every rank a data-parallel replica (ZeRO)
    assert (run["dp"], run["tp"], run["pp"]) == (8, 1, 1)
    assert [e["kind"] for e in parsed.events].count("skipped_step") == 3  # three OVERFLOW! lines
    assert "checkpoint" in parsed.event_kinds()
    assert parsed.series("lr")[0] == (10, pytest.approx(1e-5))  # "[Rank 0] step=10, ..., lr=[1.0e-05]"
    samples = dict(parsed.series("samples_per_s"))
    assert 180 < samples[10] < 187 and samples[20] in (pytest.approx(34.22), samples[20])
    assert parsed.series("tflops") == [(20, pytest.approx(368.45))]  # fwd+bwd FLOPS of the profiler block
    assert parsed.series("step_time_ms") == [(20, pytest.approx(3740.0))]  # iter latency 3.74 s
    assert dict(parsed.series("memory_mb"))[10] == pytest.approx(61.87 * 1024)
    # the user's own "Epoch: 0 | Step: 4 | loss = ..." prints are mined as a series
    loss = parsed.series("loss")
    assert loss[0][0] == 4 and loss[-1][0] == 40 and len(loss) == 37


def test_pipeline_engine_run_cancelled_by_slurm():
    parsed = parse_log(SAMPLES / "deepspeed_pipeline_cancelled.log")
    assert parsed.run["status"] == "cancelled" and parsed.run["world_size"] == 16
    assert parsed.series("loss")[-1] == (120, pytest.approx(4.1))
    assert all(2000 < v < 2100 for _, v in parsed.series("step_time_ms"))  # "iter time (s): 2.0xx"
    cancel = [e for e in parsed.events if e["kind"] == "cancelled"]
    assert len(cancel) == 1 and cancel[0]["step"] == 120
