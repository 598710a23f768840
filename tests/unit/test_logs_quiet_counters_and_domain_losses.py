"""No invented events from quiet shapes: a per-domain loss that is NaN because its domain had no tokens in the
batch (``loss/en=2.1 loss/cn=nan``) beside a finite loss is no divergence; a batch counter starting again as
the pass beside it rises (``Pass 1, Batch 0``) is no restart; a dump of the run's arguments over several lines
(``'epoch': 300.0,``) above the first record is no record the run went back from. A tool built on another's
parallel context (InternEvo's ``Distributed environment is initialized, data parallel size: 4``) is named by
its own marker. Own-written logs, through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_a_domains_nan_loss_beside_a_finite_loss_is_no_divergence(tmp_path):
    lines = [
        f"2025-01-02T03:04:{s:02d}.000+08:00 INFO [trainer.py, line 88, in log_step] - step={s} loss={3 - s / 10:.3f} "
        f"tokens/en=4096 tokens/cn=0 loss/en={3 - s / 10:.3f} loss/cn=nan loss/code=nan lr=1e-4"
        for s in range(6)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert not [e for e in log.events if e["kind"] == "nan"]
    assert log.run["status"] != "diverged"


def test_a_nan_loss_in_prose_is_still_one(tmp_path):
    lines = [f"step {s} | loss {2 - s / 10:.2f}" for s in range(1, 5)] + ["WARNING: nan loss at step 5, skipping"]
    log = parse_log(write_log(tmp_path, lines))
    assert [e["kind"] for e in log.events if e["kind"] == "nan"] == ["nan"]


def test_a_batch_counter_starting_again_under_a_new_pass_is_no_restart(tmp_path):
    lines = []
    for p in range(3):
        for b in (0, 100, 200):
            lines += [f"Pass {p}, Batch {b}, Cost {2 - p / 3 - b / 1000:.6f}, {{'error_evaluator': 0.{80 - p * 10 - b // 100}}}", "." * 90]
    log = parse_log(write_log(tmp_path, lines))
    assert not [e for e in log.events if e["kind"] == "restart"]


def test_an_arguments_dump_above_the_records_is_no_step_to_go_back_from(tmp_path):
    lines = ["2025-07-07 13:50:09.941 INFO: Parsed arguments:", "{'batch_size': 32,", " 'epoch': 300.0,",
             " 'lr': 0.01,", " 'workers': 0}"]
    lines += [f"2025-07-07 13:51:{e:02d}.000 INFO: Epoch {e}: train loss {1 / e:.4f}, val loss {1.2 / e:.4f}" for e in range(1, 6)]
    log = parse_log(write_log(tmp_path, lines))
    assert not [e for e in log.events if e["kind"] == "restart"]


def test_a_tool_on_another_tools_parallel_context_is_named_by_its_own_marker(tmp_path):
    lines = [
        "2024-05-06 07:08:09,100 INFO launch.py:409 in launch -- Distributed environment is initialized, "
        "data parallel size: 2, pipeline parallel size: 1, tensor parallel size: 4",
    ] + [
        f"2024-05-06 07:08:{10 + s},000 INFO [training_internlm.py, line 601, in record_current_batch_training_metrics] "
        f"- pid=4242 : tflops=120.5 step={s} loss={9 - s / 4:.4f} tgs (tokens/gpu/second)=1001.2 lr=3e-05"
        for s in range(4)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.run["framework"] == "InternEvo"
    assert (log.run["dp"], log.run["tp"]) == (2, 4)
