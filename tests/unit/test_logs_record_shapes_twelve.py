"""Record shapes a structural reading gets right (issue 25): an evaluation's estimate of the training loss, a
cut last record, a logger's ``LEVEL:name:`` prefix, a save reported by its step, a split-prefixed step key,
a console wrap counted in characters. Each log is written here in the shape such tools print, through the whole
``parse_log`` path."""

from __future__ import annotations

import math

from log_files import write_log

from assay.operators.logs import parse_log


def _training_steps(log) -> set[int]:
    """The steps that hold a training value (no evaluation's): what a reader counts as training records."""
    rows = zip(log.metrics.column("step").to_pylist(), log.metrics.column("name").to_pylist(), strict=True)
    return {s for s, n in rows if s is not None and not n.startswith(("val_", "eval_", "test_"))}


def test_an_evaluations_estimate_of_the_training_loss_is_an_evaluation_value(tmp_path):
    lines = [f"iter {i}: loss {3.1 - i / 500:.4f}, time 412.30ms, mfu 21.07%" for i in range(0, 120, 20)]
    lines.append("step 120: train loss 2.8420, val loss 2.9911")  # the excerpt ends at the evaluation
    log = parse_log(write_log(tmp_path, lines, "ckpt_run.log"))
    assert log.series("val_loss") == [(120, 2.9911)]
    assert log.series("eval_train_loss") == [(120, 2.842)]
    assert max(_training_steps(log)) == 100
    assert log.series("loss")[-1][0] == 100


def test_a_record_of_comma_separated_pairs_cut_before_its_last_comma_is_no_table_header(tmp_path):
    lines = [f"updates:{7000 + k}, train acc:0.{40 + k}, train loss:{90 - k}.125, loss ce:{50 - k}.5, loss kl:3.25,"
             for k in range(8)]
    lines.append("updates:7008, train acc:0.49, train loss:81.500, loss ce:41.5, loss kl:3.2")  # cut in its last value
    log = parse_log(write_log(tmp_path, lines, "asr_loop.log"))
    assert log.series("loss")[-1] == (7008, 81.5)
    assert len(_training_steps(log)) == 9


def test_a_record_cut_on_the_separator_after_a_value_is_read(tmp_path):
    lines = [f"Round: {k}, Moves: {900 + 7 * k}, score: {-5 + k % 3}, Mean score: {-4.5 + k / 100:.3f}, Secs: 2.{k}1"
             for k in range(20, 30)]
    lines.append("Round: 30, Moves: 1101, score: -4,")  # the excerpt ends after a complete field
    log = parse_log(write_log(tmp_path, lines, "agent.log"))
    assert max(_training_steps(log)) == 30
    assert len(_training_steps(log)) == 11


def test_pythons_default_logging_prefix_names_no_value(tmp_path):
    lines = ["INFO:tensorflow:Graph was finalized."]
    for k in range(5):
        lines.append(f"INFO:tensorflow:loss = {2.5 - k / 10:.7f}, step = {1 + 300 * k} ({1.2 + k / 10:.3f} sec)")
        lines.append(f"INFO:tensorflow:global_step/sec: {240 + k}.5")
    log = parse_log(write_log(tmp_path, lines, "estimator.log"))
    assert [s for s, _ in log.series("loss")] == [1, 301, 601, 901, 1201]
    assert log.series("loss")[-1] == (1201, 2.1)


def test_a_checkpoint_reported_at_its_step_is_a_save(tmp_path):
    lines = []
    for s in range(100, 112):
        lines.append(f"step {s} - loss {40 - s / 10:.4f} - moving ave loss {41 - s / 10:.4f}")
        if s in (104, 110):
            lines.append(f"Checkpoint at step {s}")
    log = parse_log(write_log(tmp_path, lines, "detector.log"))
    assert [(e["kind"], e["step"]) for e in log.events] == [("checkpoint", 104), ("checkpoint", 110)]


def test_an_evaluations_copy_of_the_run_wide_counter_is_its_step(tmp_path):
    lines = [
        '2024-02-03 10:00:00 | INFO | valid | {"epoch": 12, "valid_loss": "5.21", "valid_ppl": "37.1", '
        '"valid_num_updates": "4800"}',
        "2024-02-03 10:00:01 | INFO | fairseq.checkpoint_utils | Saved checkpoint ck/checkpoint12.pt (epoch 12 @ 4800 "
        "updates, score 5.21) (writing took 3.5 seconds)",
        '2024-02-03 10:00:02 | INFO | train | {"epoch": 12, "train_loss": "5.02", "train_ppl": "32.4", '
        '"train_num_updates": "4800", "train_lr": "0.0004"}',
    ]
    log = parse_log(write_log(tmp_path, lines, "mt.log"))
    assert log.series("val_loss") == [(4800, 5.21)]
    assert log.series("loss") == [(4800, 5.02)]
    assert _training_steps(log) == {4800}
    assert [(e["kind"], e["step"]) for e in log.events] == [("checkpoint", 4800)]


def test_a_console_wrap_is_measured_in_characters_not_bytes(tmp_path):
    # a download bar of three-byte blocks, then the trainer's line glued after it; the console wraps both at
    # 120 characters, mid-word, and the bar grew between the two draws: as many characters, more bytes
    def wrapped(name: str, blocks: int, glued: str) -> list[str]:
        full = f"./{name}:  42%|" + "\u2588" * blocks + " " * (50 - blocks) + "| 1.2G/2.9G [00:41<01:02, 27.1MB/s]" + glued
        return [full[:120], full[120:]]

    lines = wrapped("shard_3.bin", 30, "[12:00:01] epoch: 0, batch: 310/9000, loss: 6.20415 ")
    lines += wrapped("shard_4.b", 34, "Traceback (most recent call last):")
    lines += ['  File "/srv/job/run.py", line 40, in <module>', "    trainer.fit()", "  Fi"]  # cut in the traceback
    log = parse_log(write_log(tmp_path, lines, "pretrain.log"))
    assert log.series("loss") == [(310, 6.20415)]
    assert [(e["kind"], e["step"]) for e in log.events] == [("failure", 310)]


def test_a_record_worded_as_sentences_is_read(tmp_path):
    # every value joined to its name by "is" and closed by a full stop; "in" between two numbers does not make
    # it prose, since a metric's name comes before a number
    lines = [
        f"[Iteration {500 + k}] Processed 256 samples in {0.8 + k / 100:.3f} seconds. Loss is {3.2 - k / 10:.5f}. "
        f"Current learning rate is 0.01."
        for k in range(5)
    ]
    log = parse_log(write_log(tmp_path, lines, "jvm_job.log"))
    assert log.series("loss")[-1] == (504, 2.8)
    assert [s for s, _ in log.series("loss")] == [500, 501, 502, 503, 504]


def test_a_policy_and_a_value_term_without_a_total_give_no_single_loss(tmp_path):
    lines = []
    for k, steps in enumerate((20480, 40960)):
        lines += [
            " " + "-" * 36,
            f" | clipfrac           | 0.0{k + 1}25     |",
            f" | policy_entropy     | {1.9 - k / 10:.3f}      |",
            f" | policy_loss        | -0.0{k + 3}71    |",
            f" | total_timesteps    | {steps}      |",
            f" | value_loss         | {0.71 - k / 10:.3f}      |",
            " " + "-" * 36,
        ]
    log = parse_log(write_log(tmp_path, lines, "ppo_agent.log"))
    assert log.series("loss") == []
    assert [s for s, _ in log.series("policy_loss")] == [20480, 40960]
    assert log.series("value_loss")[-1] == (40960, 0.61)


def _detector_row(epoch: str, box: str, obj: str, cls: str, total: str, bar: str) -> str:
    return f"{epoch:>10}{'7.2G':>10}{box:>10}{obj:>10}{cls:>10}{total:>10}{'212':>10}{'640':>10}: {bar}"


def test_bar_rows_of_the_first_epoch_count_by_their_bar_and_a_nan_term_makes_the_total_the_loss(tmp_path):
    header = "     Epoch   gpu_mem       box       obj       cls     total    labels  img_size"
    lines = [
        header,
        _detector_row("0/99", "0.0912", "1.904", "0.3301", "2.325", "  1%|#    | 3/300 [00:09<15:10,  3.05s/it]")
        + "Some notice glued after the bar.",
        _detector_row("0/99", "nan", "1.511", "nan", "nan", " 10%|##   | 30/300 [00:51<07:40,  1.70s/it]"),
    ]
    log = parse_log(write_log(tmp_path, lines, "detector.log"))
    loss = log.series("loss")
    assert [s for s, _ in loss] == [3, 30]
    assert loss[0][1] == 2.325 and math.isnan(loss[1][1])
    assert ("nan", 30) in [(e["kind"], e["step"]) for e in log.events]


def test_epoch_rows_whose_total_is_nan_keep_the_epoch_and_the_loss(tmp_path):
    header = "     Epoch   gpu_mem       box       obj       cls     total    labels  img_size"
    lines = []
    for e in (7, 8):
        lines += [header, _detector_row(f"{e}/99", "nan", "0.021", "0", "nan",
                                        "100%|#####| 300/300 [09:10<00:00,  1.83s/it]"), ""]
    log = parse_log(write_log(tmp_path, lines, "detector.log"))
    assert [s for s, _ in log.series("loss")] == [7, 8]
    assert all(math.isnan(v) for _, v in log.series("loss"))


def test_a_value_in_a_group_labelled_by_the_loss_keeps_the_name_over_an_aggregates(tmp_path):
    lines = [
        f"2023-03-04 05:06:{10 + k},000 INFO [fit.py:300] Epoch 0, batch {k * 100}, loss[mse_loss={0.5 - k / 50:.3f}, "
        f"loss={0.61 - k / 50:.4f}, over 900 items.], tot_loss[mse_loss={0.7 - k / 100:.3f}, loss={0.8 - k / 100:.4f}, "
        f"over {9000 + k} items.], batch size: 12"
        for k in range(1, 6)
    ]
    log = parse_log(write_log(tmp_path, lines, "speech.log"))
    assert log.series("loss")[-1] == (500, 0.51)
    assert log.series("tot_loss_loss")[-1] == (500, 0.75)


def test_a_save_naming_the_step_between_two_records_is_at_that_step(tmp_path):
    lines = ["INFO:tensorflow:Saving checkpoints for 0 into /tmp/est/model.ckpt."]
    for step in (1, 401, 801):
        lines.append(f"INFO:tensorflow:loss = {0.9 - step / 1000:.4f}, step = {step} (2.1 sec)")
        lines.append("INFO:tensorflow:global_step/sec: 190.5")
    lines.append("INFO:tensorflow:Saving checkpoints for 1000 into /tmp/est/model.ckpt.")
    lines.append("INFO:tensorflow:loss = 0.05, step = 1001 (2.0 sec)")
    lines.append("INFO:tensorflow:Saving checkpoints for 1024 into /tmp/est/model.ckpt.")
    lines.append("saving checkpoint 3 of this run")  # a save count keeps the step of the record before it
    log = parse_log(write_log(tmp_path, lines, "estimator.log"))
    saves = [e["step"] for e in log.events if e["kind"] == "checkpoint"]
    assert saves == [0, 1000, 1024, 1001]


def test_rows_above_the_first_header_are_its_rows_where_they_fill_every_column(tmp_path):
    header = "     Epoch   gpu_mem       box       obj       cls     total    labels  img_size"
    done = "100%|#####| 300/300 [09:10<00:00,  1.83s/it]"
    lines = [
        _detector_row("11/99", "0.041", "0.021", "0.010", "0.072", done),  # the excerpt opens below its header
        "",
        header,
        _detector_row("12/99", "0.040", "0.020", "0.010", "0.070", done),
    ]
    log = parse_log(write_log(tmp_path, lines, "detector.log"))
    assert log.series("loss") == [(11, 0.072), (12, 0.07)]
