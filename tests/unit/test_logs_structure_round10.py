"""Shapes read from structure (issue 25, session-10 round), each on a log written here in that shape, through
the whole ``parse_log`` path: a data file's header behind a comment mark, a split written after the loss's name,
a run-wide count of environment steps, a boxed report numbered only by its epoch, a last line cut inside a
fixed-precision value, a loop that prints only its epochs' ends, and a NaN message that is no record."""

from __future__ import annotations

import math

from log_files import write_log

from assay.operators.logs import parse_log


def test_a_header_behind_a_comment_mark_names_the_columns_and_trn_is_the_training_split(tmp_path):
    lines = ["#  step      loss_val    loss_trn        lr"]
    lines += [f"{s:7d}      {2.0 - s / 1000:.2e}    {2.1 - s / 1000:.2e}    1.0e-03" for s in (0, 100, 200, 300)]
    log = parse_log(write_log(tmp_path, lines, name="lcurve.out"))
    assert [s for s, _ in log.series("loss")] == [0, 100, 200, 300]
    assert log.series("loss")[-1][1] == 1.8
    assert log.series("val_loss")[-1] == (300, 1.7)


def test_a_cumulative_count_of_environment_steps_is_the_boxed_reports_step(tmp_path):
    box = []
    for epoch, interacts in ((0, 4000), (1, 8000)):
        box += ["-" * 39, f"|             Epoch | {epoch:15d} |", f"|      AverageEpRet | {20.5 + epoch:15.1f} |",
                f"|             LossPi | {0.012 - epoch / 1000:15.4f} |", f"|              LossV | {45.0 - epoch:15.1f} |",
                f"|  TotalEnvInteracts | {interacts:15d} |", "-" * 39]
    log = parse_log(write_log(tmp_path, box))
    assert sorted(set(log.metrics.column("step").to_pylist())) == [4000, 8000]
    # the policy's and the value's losses are separate objectives: no single loss
    assert not log.series("loss")


def test_a_boxed_report_with_only_its_epoch_is_at_that_epoch(tmp_path):
    box = ["-" * 39, "|             Epoch |               3 |", "|      AverageEpRet |            21.5 |",
           "|          StdEpRet |            11.3 |", "-" * 39]
    log = parse_log(write_log(tmp_path, box))
    assert set(log.metrics.column("step").to_pylist()) == {3}


def test_a_last_line_cut_inside_a_fixed_precision_value_is_no_record(tmp_path):
    lines = [f"Train Epoch: 1 [{i * 100}/600 ({i * 100 // 6}%)]\tLoss: {0.5 / (i + 1):.12f}" for i in range(6)]
    lines.append("Train Epoch: 2 [0/600 (0%)]\tLoss: 0.0000123")  # the excerpt ends inside the number
    log = parse_log(write_log(tmp_path, lines))
    losses = log.series("loss")
    assert len(losses) == 6 and losses[-1][1] == round(0.5 / 6, 12)
    # the same line printed whole is a record
    lines[-1] = "Train Epoch: 2 [0/600 (0%)]\tLoss: 0.000012300000"
    log = parse_log(write_log(tmp_path, lines, name="whole.log"))
    assert len(log.series("loss")) == 7


def test_a_loop_that_prints_only_its_epochs_ends_has_a_record_per_epoch(tmp_path):
    lines = [f"End of epoch  {e} | loss   {4.2 - e / 100:.4f}  | recon_loss   {4.1 - e / 100:.4f}" for e in range(5, 9)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(e, round(4.2 - e / 100, 4)) for e in range(5, 9)]


def test_a_message_that_the_loss_is_nan_is_an_event_not_a_record(tmp_path):
    lines = [f"epoch {e} | loss {3.0 - e / 10:.3f}" for e in range(1, 5)]
    lines += ["halting the epoch because loss is NaN", "halting the run because loss is NaN"]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss")[-1] == (4, 2.6)
    assert "nan" in {e["kind"] for e in log.events}
    # a record printing the NaN where it printed numbers stays a record of the run diverging
    lines = [f"Loss is {v}" for v in ("2.31", "2.12", "nan")]
    log = parse_log(write_log(tmp_path, [f"step {i} {ln}" for i, ln in enumerate(lines)], name="diverged.log"))
    assert math.isnan(log.series("loss")[-1][1])


def test_a_setting_whose_noun_phrase_ends_in_steps_numbers_no_record(tmp_path):
    # "Total prediction steps = 3" in an evaluation's banner is a count of the evaluation, not the step the
    # evaluation's values are at: they stay at the training step before them
    lines = [
        "[2024-02-01 10:00:00,000] [INFO] - loss: 0.61, learning_rate: 3e-06, global_step: 100, epoch: 5.0",
        "[2024-02-01 10:00:00,001] [INFO] - ***** Running Evaluation *****",
        "[2024-02-01 10:00:00,002] [INFO] -   Total prediction steps = 3",
        "[2024-02-01 10:00:01,000] [INFO] - eval_loss: 0.74, eval_accuracy: 0.70, epoch: 5.0",
        "[2024-02-01 10:00:02,000] [INFO] - loss: 0.55, learning_rate: 3e-06, global_step: 110, epoch: 5.5",
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("val_loss") == [(100, 0.74)]


def test_a_batch_size_written_in_words_in_a_start_up_banner_is_the_runs_layout(tmp_path):
    lines = [
        "[2024-02-01 10:00:00,000] [INFO] - ***** Running training *****",
        "[2024-02-01 10:00:00,000] [INFO] -   Instantaneous batch size per device = 16",
        "[2024-02-01 10:00:00,000] [INFO] -   Total train batch size (w. parallel, distributed & accumulation) = 128",
        "[2024-02-01 10:00:01,000] [INFO] - loss: 0.61, learning_rate: 3e-06, global_step: 10, epoch: 0.1",
        "[2024-02-01 10:00:02,000] [INFO] - loss: 0.58, learning_rate: 3e-06, global_step: 20, epoch: 0.2",
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert (log.run["micro_batch_size"], log.run["global_batch_size"]) == (16, 128)


def test_escape_sequences_shown_by_a_pager_are_stripped_as_the_bytes_are(tmp_path):
    header = "epoch       iteration   main/loss   validation/main/loss   elapsed_time"
    rows = [f"{{esc}}[J0           {i * 100:<12d}{700 - i * 50:<12.3f}{'':23s}{i * 40.5:.3f}" for i in (1, 2, 3)]
    for esc, name in (("\x1b", "bytes.log"), ("ESC", "less.log"), ("^[", "catv.log")):
        log = parse_log(write_log(tmp_path, [header, *(r.format(esc=esc) for r in rows)], name=name))
        assert [s for s, _ in log.series("loss")] == [100, 200, 300], name


def test_a_tabular_loggers_key_and_value_lines_are_one_record_at_its_run_wide_count(tmp_path):
    lines = ["itr #499 saving snapshot...", "----------------------------- ---------------"]
    lines += [f"2024-02-01 10:00:00.{i:06d} | {k} {v}" for i, (k, v) in enumerate(
        [("Diagnostics/Iteration", 499), ("Diagnostics/CumTime (s)", 812.4), ("Diagnostics/CumSteps", 2000),
         ("Diagnostics/StepsPerSecond", 2.46), ("loss/Average", 0.4123), ("loss/Std", 0.0321)])]
    log = parse_log(write_log(tmp_path, lines))
    assert set(log.metrics.column("step").to_pylist()) == {2000}
    # a sentence of two words and a number is no such line
    log = parse_log(write_log(tmp_path, ["warmup done 3", "we trained 12", "step 5 loss 0.4"], name="prose.log"))
    assert log.series("loss") == [(5, 0.4)]


def test_activation_checkpointing_is_no_save(tmp_path):
    lines = ["using activation checkpointing in 24 layers", "gradient checkpointing to save memory: on",
             "step 1 loss 0.9", "step 2 loss 0.8"]
    assert "checkpoint" not in {e["kind"] for e in parse_log(write_log(tmp_path, lines)).events}
