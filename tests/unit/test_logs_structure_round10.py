"""Shapes read from structure (issue 25, session-10 round), each on a log written here in that shape, through
the whole ``parse_log`` path: a data file's header behind a comment mark, a split written after the loss's name,
a run-wide count of environment steps, a boxed report numbered only by its epoch, a last line cut inside a
fixed-precision value, a loop that prints only its epochs' ends, and a NaN message that is no record."""

from __future__ import annotations

import math

from log_files import write_log

from assay.operators.logs import parse_log


def _series(log, name: str) -> list[tuple[int, float]]:
    t = log.metrics
    return [(s, v) for s, n, v in zip(t.column("step").to_pylist(), t.column("name").to_pylist(),
                                      t.column("value").to_pylist(), strict=True) if n == name]


def test_a_header_behind_a_comment_mark_names_the_columns_and_trn_is_the_training_split(tmp_path):
    lines = ["#  step      loss_val    loss_trn        lr"]
    lines += [f"{s:7d}      {2.0 - s / 1000:.2e}    {2.1 - s / 1000:.2e}    1.0e-03" for s in (0, 100, 200, 300)]
    log = parse_log(write_log(tmp_path, lines, name="lcurve.out"))
    assert [s for s, _ in _series(log, "loss")] == [0, 100, 200, 300]
    assert _series(log, "loss")[-1][1] == 1.8
    assert _series(log, "val_loss")[-1] == (300, 1.7)


def test_a_cumulative_count_of_environment_steps_is_the_boxed_reports_step(tmp_path):
    box = []
    for epoch, interacts in ((0, 4000), (1, 8000)):
        box += ["-" * 39, f"|             Epoch | {epoch:15d} |", f"|      AverageEpRet | {20.5 + epoch:15.1f} |",
                f"|             LossPi | {0.012 - epoch / 1000:15.4f} |", f"|              LossV | {45.0 - epoch:15.1f} |",
                f"|  TotalEnvInteracts | {interacts:15d} |", "-" * 39]
    log = parse_log(write_log(tmp_path, box))
    assert sorted(set(log.metrics.column("step").to_pylist())) == [4000, 8000]
    # the policy's and the value's losses are separate objectives: no single loss
    assert not _series(log, "loss")


def test_a_boxed_report_with_only_its_epoch_is_at_that_epoch(tmp_path):
    box = ["-" * 39, "|             Epoch |               3 |", "|      AverageEpRet |            21.5 |",
           "|          StdEpRet |            11.3 |", "-" * 39]
    log = parse_log(write_log(tmp_path, box))
    assert set(log.metrics.column("step").to_pylist()) == {3}


def test_a_last_line_cut_inside_a_fixed_precision_value_is_no_record(tmp_path):
    lines = [f"Train Epoch: 1 [{i * 100}/600 ({i * 100 // 6}%)]\tLoss: {0.5 / (i + 1):.12f}" for i in range(6)]
    lines.append("Train Epoch: 2 [0/600 (0%)]\tLoss: 0.0000123")  # the excerpt ends inside the number
    log = parse_log(write_log(tmp_path, lines))
    losses = _series(log, "loss")
    assert len(losses) == 6 and losses[-1][1] == round(0.5 / 6, 12)
    # the same line printed whole is a record
    lines[-1] = "Train Epoch: 2 [0/600 (0%)]\tLoss: 0.000012300000"
    log = parse_log(write_log(tmp_path, lines, name="whole.log"))
    assert len(_series(log, "loss")) == 7


def test_a_loop_that_prints_only_its_epochs_ends_has_a_record_per_epoch(tmp_path):
    lines = [f"End of epoch  {e} | loss   {4.2 - e / 100:.4f}  | recon_loss   {4.1 - e / 100:.4f}" for e in range(5, 9)]
    log = parse_log(write_log(tmp_path, lines))
    assert _series(log, "loss") == [(e, round(4.2 - e / 100, 4)) for e in range(5, 9)]


def test_a_message_that_the_loss_is_nan_is_an_event_not_a_record(tmp_path):
    lines = [f"epoch {e} | loss {3.0 - e / 10:.3f}" for e in range(1, 5)]
    lines += ["halting the epoch because loss is NaN", "halting the run because loss is NaN"]
    log = parse_log(write_log(tmp_path, lines))
    assert _series(log, "loss")[-1] == (4, 2.6)
    assert "nan" in {e["kind"] for e in log.events}
    # a record printing the NaN where it printed numbers stays a record of the run diverging
    lines = [f"Loss is {v}" for v in ("2.31", "2.12", "nan")]
    log = parse_log(write_log(tmp_path, [f"step {i} {ln}" for i, ln in enumerate(lines)], name="diverged.log"))
    assert math.isnan(_series(log, "loss")[-1][1])
