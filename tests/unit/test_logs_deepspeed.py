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


def test_a_scripts_bar_with_the_engines_overflow_notices_glued_after_it(tmp_path):
    # a user's loop under DeepSpeed: its own start-up banner and bar; the engine's overflow notices glued after
    # the bar are skipped steps, and the scale they tried is no series
    head = "03/04/2025 05:06:07 - INFO - __main__ -"
    bar = " " * 30
    notice = (
        "[2025-03-04 05:06:09,123] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping "
        "step. Attempted loss scale: {a}, reducing to {b}"
    )
    lines = [
        f"{head} ***** Running training *****",
        f"{head}   Instantaneous batch size per device = 4",
        f"{head}   Total train batch size (w. parallel, distributed & accumulation) = 32",
        f"Steps:   0%|{bar}| 0/5000 [00:00<?, ?it/s]" + notice.format(a=65536, b=32768),
        f"Steps:   0%|{bar}| 1/5000 [00:03<4:10:00,  3.00s/it, loss=0.0210, lr=0.0001]" + notice.format(a=32768, b=16384),
        f"Steps:   0%|{bar}| 2/5000 [00:06<4:10:00,  3.00s/it, loss=0.0190, lr=0.0001]",
    ]
    path = tmp_path / "train.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    log = parse_log(str(path))
    assert [s for s, _ in log.series("loss")] == [1, 2]
    assert not log.series("loss_scale")
    assert "skipped_step" in log.event_kinds()
    assert (log.run["micro_batch_size"], log.run["global_batch_size"]) == (4, 32)


def test_the_scripts_own_records_and_options_where_the_engine_printed_no_record(tmp_path):
    # DeepSpeed names itself, then the script prints its layout and records in words the engine's reader lacks
    lines = [
        "[2025-03-04 05:06:07,001] [INFO] [logging.py:96:log_dist] [Rank 0] DeepSpeed info: version=0.14.0",
        "Instantaneous batch size per device = 6",
        *[f"it {10 * k} | xent {2.5 - k / 10:.3f} | lr 0.0001" for k in range(1, 5)],
    ]
    path = tmp_path / "train.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    log = parse_log(str(path))
    assert [s for s, _ in log.series("loss")] == [10, 20, 30, 40]
    assert log.run["micro_batch_size"] == 6


def test_the_throughput_timer_of_old_releases_gives_the_steps(tmp_path):
    # DeepSpeed before 0.3.11 printed '<epoch>/<step>, SamplesPerSec=<avg>' from its timer, and its fp16
    # optimizer's overflow notice over two lines (the message after a line break)
    stamp = "[2022-02-03 10:11:{:02d},120] [INFO]"
    lines = [f"{stamp.format(s)} [timer.py:166:stop] 0/{step}, SamplesPerSec=41.{s}07" for s, step in
             ((1, 20), (5, 30), (9, 40))]
    lines += [
        f"{stamp.format(12)} [fused_optimizer.py:314:_update_scale] ",
        "Grad overflow on iteration 7",
        f"{stamp.format(12)} [logging.py:60:log_dist] [Rank 0] Overflow detected. Skipping step. Attempted loss "
        "scale: 16.0, reducing to 8.0",
        f"{stamp.format(13)} [timer.py:166:stop] 0/50, SamplesPerSec=40.9925",
    ]
    path = tmp_path / "train.log"
    path.write_text("\n".join(lines) + "\n")
    parsed = parse_log(path)
    assert parsed.run["framework"] == "DeepSpeed"
    assert [step for step, _ in parsed.series("samples_per_s")] == [20, 30, 40, 50]
    assert [e["kind"] for e in parsed.events] == ["skipped_step"]
    assert 40 <= parsed.events[0]["step"] <= 50
