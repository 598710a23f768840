"""Logs round 13: class-level readings found on a newly opened set, each rule on a log written here in its shape
(own-worded tool output) and read through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _steps(log, name: str) -> list[int | None]:
    return [s for s, _ in log.series(name)]


def _row(step: int, loss: str) -> str:
    return f"{step} | loss {loss} | lr 3.125000e-04 | 517.08ms | mfu 12.40%"


def test_a_bare_number_opening_a_row_of_keyed_fields_is_its_step(tmp_path):
    # ``N | loss X | lr Y | ...``: the only unnamed field, set apart by its separator, counts the rows, from the
    # first row on; ``loss nan`` is still the row's loss, and its nan event is at that step
    log = parse_log(write_log(tmp_path, [_row(7300, "3.4417"), _row(7310, "nan")], "pico.log"))
    assert _steps(log, "loss") == [7300, 7310]
    assert [(e["kind"], e["step"]) for e in log.events] == [("nan", 7310)]


def test_a_single_keyed_row_takes_its_leading_number_as_its_step(tmp_path):
    log = parse_log(write_log(tmp_path, [_row(52000, "2.0713")], "pico.log"))
    assert log.series("loss") == [(52000, 2.0713)]


def test_a_leading_number_before_an_unnamed_whole_number_is_no_step_of_one_row(tmp_path):
    # a second unnamed whole number on the row: which one counts is not said, so one row keeps no step
    log = parse_log(write_log(tmp_path, ["52000 | 17 | loss 2.0713 | lr 3.1e-04"], "pico.log"))
    assert _steps(log, "loss") == [None]


def test_training_rows_beside_a_framework_parsers_evaluation_lines_are_read(tmp_path):
    # the evaluation line is nanoGPT's; the training rows are the script's own: a parser that found only
    # evaluation values leaves the other lines to the general reader, and keeps its reading of its own lines
    lines = [
        "step 7300: train loss 3.4521, val loss 3.5160",
        _row(7300, "3.4417"),
        _row(7310, "3.4380"),
        _row(7320, "nan"),
    ]
    log = parse_log(write_log(tmp_path, lines, "pico.log"))
    assert log.series("loss")[:2] == [(7300, 3.4417), (7310, 3.438)]
    assert _steps(log, "loss") == [7300, 7310, 7320]
    assert log.series("val_loss") == [(7300, 3.516)]
    assert log.series("eval_train_loss") == [(7300, 3.4521)]
    assert [(e["kind"], e["step"]) for e in log.events] == [("nan", 7320)]


def _header_record(epoch: str, step: int, total: int, loss: float) -> list[str]:
    return [
        f"Epoch [{epoch}], Step [{step}/{total}]:",
        f"Total Loss: {loss:.4f}, Band Loss: {loss / 4:.4f}, Tone Loss: {loss * 3 / 4:.4f};",
        f"Wall: {step * 0.4:.1f}s, Left: {(total - step) * 0.4:.1f}s.",
    ]


def test_a_counter_in_its_epochs_share_of_its_total_counts_the_run(tmp_path):
    # 100000 steps over 250 epochs: epoch 7 holds steps 2400-2800, and 2730 lies there: the total is the run's,
    # so the printed counter is the step, never 6 * 100000 + 2730 as an in-epoch index made global
    lines = _header_record("7/250", 2730, 100000, 2.9133) + _header_record("7/250", 2740, 100000, 2.9071)
    log = parse_log(write_log(tmp_path, lines, "voc.log"))
    assert log.series("loss") == [(2730, 2.9133), (2740, 2.9071)]


def test_a_counter_outside_its_epochs_share_counts_the_epoch(tmp_path):
    # 600 batches an epoch, 30 epochs: ``100/600`` in epoch 2 is no share of a run's total; made global
    lines = [f"Epoch [{e}/30], Step [{s}/600], loss: {2 - s / 1000:.3f}" for e in (2, 3) for s in (100, 200)]
    log = parse_log(write_log(tmp_path, lines, "voc.log"))
    assert _steps(log, "loss") == [700, 800, 1300, 1400]


def test_a_first_record_in_its_share_by_chance_is_made_global_once_another_is_not(tmp_path):
    # ``50/500`` in epoch 3 of 25 lies in the run's share (40-60), ``150/500`` does not: the counter counts
    # each epoch, the first record included
    lines = [f"Epoch [{e}/25], Step [{s}/500], loss: {2 - s / 1000:.3f}" for e, s in ((3, 50), (3, 150), (4, 50))]
    log = parse_log(write_log(tmp_path, lines, "voc.log"))
    assert _steps(log, "loss") == [1050, 1150, 1550]


def test_a_counter_going_on_as_its_k_of_n_epoch_goes_up_counts_the_run(tmp_path):
    # eight epochs are too few to tell by the share; the counter going on across ``Epoch [3/8]`` -> ``[4/8]``
    # says it counts the run
    lines = [
        f"Epoch [{e}/8], Step [{s}/5000], loss: {3 - s / 5000:.4f}"
        for e, s in ((3, 4930), (3, 4960), (4, 4990), (4, 5000))
    ]
    log = parse_log(write_log(tmp_path, lines, "voc.log"))
    assert _steps(log, "loss") == [4930, 4960, 4990, 5000]


def test_a_loss_printed_only_under_its_criterions_name_is_the_loss_and_its_validation_twin_the_val_loss(tmp_path):
    # ``ctc=`` is the only objective the summaries print (``wer`` is a score): the training loss, and on the
    # validation summary the validation loss
    lines = []
    for epoch in (4, 5, 6):
        lines.append(f"TRAIN done | ep {epoch} | lr=2.0E-04 | ctc={1.9 - epoch / 20:.3f} | wer={0.4 - epoch / 100:.3f}")
        lines.append(f"DEV done | ep {epoch} | ctc={2.1 - epoch / 20:.3f} | wer={0.45 - epoch / 100:.3f}")
    log = parse_log(write_log(tmp_path, lines, "asr.log"))
    assert log.series("loss")[-1] == (6, 1.6)
    assert log.series("val_loss")[-1] == (6, 1.8)


def test_two_criteria_on_a_record_are_its_parts_and_no_loss(tmp_path):
    lines = [f"ep {e} | ctc={1.9 - e / 20:.3f} | ce={0.9 - e / 20:.3f} | wer=0.3" for e in (1, 2, 3)]
    log = parse_log(write_log(tmp_path, lines, "asr.log"))
    assert log.series("loss") == []


def _gan_lines(steps) -> list[str]:
    return [f"it {s} | gen {4 - s / 10000:.3f} | disc {2 + s / 10000:.3f} | mel 21.4" for s in steps]


def test_a_save_is_at_the_step_its_files_name_carries_and_two_files_on_consecutive_lines_are_one_save(tmp_path):
    # the save names epoch 31 and writes ``Gen_5800.pth``, then ``Dis_5800.pth``: one checkpoint, at 5800 (the
    # step after the last record at 5600), not at the epoch nor at the record before it
    lines = _gan_lines(range(5000, 5700, 200)) + [
        "fit: storing generator and optimizer states at epoch 31 to ./runs/voc/Gen_5800.pth",
        "fit: storing generator and optimizer states at epoch 31 to ./runs/voc/Dis_5800.pth",
    ]
    log = parse_log(write_log(tmp_path, lines, "gan.log"))
    assert [(e["kind"], e["step"]) for e in log.events] == [("checkpoint", 5800)]


def test_saves_apart_by_records_stay_saves_of_their_own(tmp_path):
    lines = _gan_lines((5000, 5200)) + ["writing checkpoint to ./runs/voc/ckpt-5400"] + _gan_lines((5400, 5600)) + ["writing checkpoint to ./runs/voc/ckpt-5800"]
    log = parse_log(write_log(tmp_path, lines, "gan.log"))
    assert [(e["kind"], e["step"]) for e in log.events] == [("checkpoint", 5400), ("checkpoint", 5800)]


def test_a_runs_name_ending_on_a_number_on_a_save_line_names_no_step(tmp_path):
    # ``pong_dqn_0`` names the run, not a file: the save keeps the step of the record before it
    lines = _gan_lines((5000, 5200, 5400)) + ["pong_dqn_0 itr #5400 saving snapshot..."] + _gan_lines((5600,))
    log = parse_log(write_log(tmp_path, lines, "gan.log"))
    assert [(e["kind"], e["step"]) for e in log.events] == [("checkpoint", 5400)]


def _epochs_of_batches(last_epoch: int) -> list[str]:
    lines = []
    for e in range(1, last_epoch):
        lines += [
            f"Epoch {e} Batch 0 Loss {5 - e / 2:.4f} Accuracy {e / 20:.4f}",
            f"Epoch {e} Batch 300 Loss {4.8 - e / 2:.4f} Accuracy {e / 19:.4f}",
            f"Epoch {e} Loss {4.7 - e / 2:.4f} Accuracy {e / 18:.4f}",
            f"Time spent for 1 epoch: {400 - 10 * e}.5107 secs",
            "",
        ]
    return [*lines, f"Epoch {last_epoch} Batch 0 Loss 2.0113 Accuracy 0.2500"]


def test_a_count_inside_a_phrase_is_no_value_and_its_noun_no_key(tmp_path):
    # ``Time spent for 1 epoch: 390.5 secs``: ``1`` counts the epochs the time is for (no series ``for``), and
    # the time is no epoch; the line is at the training step before it, not at the epoch's number
    log = parse_log(write_log(tmp_path, _epochs_of_batches(4), "tutor.log"))
    names = set(log.metrics.column("name").to_pylist())
    assert "for" not in names
    assert all(v < 10 for _, v in log.series("epoch"))
    assert log.series("time_spent") == [(300, 390.5107), (300, 380.5107), (300, 370.5107)]


def test_a_batch_counter_starting_again_as_the_epoch_goes_up_on_the_last_record_is_no_restart(tmp_path):
    # the last record goes back from batch 300 to 0 as the epoch printed beside it goes from 3 to 4: a new
    # epoch, no resumed run (the excerpt ends there, so no later record says the counter goes on)
    log = parse_log(write_log(tmp_path, _epochs_of_batches(4), "tutor.log"))
    assert log.events == []
    assert log.series("loss")[-1] == (0, 2.0113)


def test_a_last_number_without_the_separator_its_format_puts_after_it_is_not_read(tmp_path):
    # every record goes on with `` | scale ...`` after the loss; the last line stops right after ``2.5993``, five
    # significant digits but no separator: the number may be cut (D9); the line is a record by its whole ``lr``
    lines = [
        f"cycle 2/ 6 | opt step {s:7d}/  40000 | lr 3e-05 | gen loss {v} | scale 2048.0 |"
        for s, v in ((1200, "2.61937"), (1210, "2.60511"))
    ]
    lines.append("cycle 2/ 6 | opt step    1220/  40000 | lr 3e-05 | gen loss 2.5993")
    log = parse_log(write_log(tmp_path, lines, "tune.log"))
    assert log.series("loss")[-1] == (1210, 2.60511)
    assert _steps(log, "lr") == [1200, 1210, 1220]


def test_a_step_printed_in_thousands_is_read_with_its_unit(tmp_path):
    # ``Step: 21k``: the counter in thousands, as the values' ``k`` suffix is read (21000, not 21)
    lines = [
        f"<| Epoch: {e} (900/900) | Loss: {3 - e / 10:.4f} | 4.1 steps/s | Step: {k}k | >"
        for e, k in ((7, 19), (8, 21), (9, 24))
    ]
    log = parse_log(write_log(tmp_path, lines, "vocoder.log"))
    assert _steps(log, "loss") == [19000, 21000, 24000]


def test_an_undotted_logger_name_in_pythons_default_layout_names_no_tool(tmp_path):
    # ``INFO:reed_tts_run3:`` is the script's own logger, named after its run: no tool, where nothing else in the
    # log refers to that name
    lines = [
        f"INFO:reed_tts_run3:Train Epoch: {e} [50%]" for e in (2, 3)
    ] + [f"INFO:reed_tts_run3:step={s}, loss_gen={3 - s / 1000:.3f}, loss_disc=2.40" for s in (300, 400, 500)]
    log = parse_log(write_log(tmp_path, lines, "tts.log"))
    assert log.run["framework"] is None


def test_an_undotted_logger_name_the_log_refers_to_otherwise_names_its_tool(tmp_path):
    # the same layout, with the package's frames in a traceback: the logger is the tool's own
    lines = [f"INFO:reedkit:step={s}, loss_gen={3 - s / 1000:.3f}, loss_disc=2.40" for s in (300, 400, 500)] + [
        "Traceback (most recent call last):",
        '  File "/usr/lib/python3/site-packages/reedkit/loop.py", line 88, in fit',
        "RuntimeError: stop",
    ]
    log = parse_log(write_log(tmp_path, lines, "tts.log"))
    assert log.run["framework"] == "reedkit"
