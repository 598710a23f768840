"""The step of an event no record placed (``_event_steps``), of a save into a folder named by its step, and an
evaluation that prints an error instead of a loss. Own-worded logs in the shapes real runs print."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _log(tmp_path, lines, **kw):
    return parse_log(write_log(tmp_path, lines, "job.log"), **kw)


def _steps(log, kind):
    return [e["step"] for e in log.events if e["kind"] == kind]


#: A research script that prints an epoch header, then dies of OOM before any value of the epoch.
_HEADER_THEN_OOM = [
    "== Training epoch: [14 / 300]",
    "Traceback (most recent call last):",
    '  File "/home/me/graphnet/run.py", line 88, in <module>',
    "    fit(cfg)",
    '  File "/home/me/graphnet/run.py", line 41, in fit',
    "    out = net(batch)",
    "RuntimeError: CUDA out of memory. Tried to allocate 512.00 MiB (GPU 1; 23.70 GiB total capacity; "
    "20.10 GiB already allocated;",
]


def test_an_oom_after_an_epoch_header_is_in_that_epoch(tmp_path):
    log = _log(tmp_path, _HEADER_THEN_OOM)
    assert _steps(log, "oom") == [14]
    assert _steps(log, "failure") == [14]


def test_an_oom_with_no_counter_keeps_no_step(tmp_path):
    log = _log(tmp_path, _HEADER_THEN_OOM[1:])
    assert _steps(log, "oom") == [None]


#: Epoch-level records (a header, bars counting the epoch's batches, a summary), then a traceback glued to
#: the next epoch's bar after its first batch.
_EPOCHS_THEN_GLUED_TRACEBACK = [
    "Epoch 41/200 (runs/scan_a):",
    "100%|" + "#" * 30 + "| 12/12 [00:03<00:00,  3.91it/s]",
    "=> Train acc: 70.12,   Loss: 0.9123",
    "Epoch 42/200 (runs/scan_a):",
    "100%|" + "#" * 30 + "| 12/12 [00:03<00:00,  3.88it/s]",
    "=> Train acc: 71.40,   Loss: 0.8876",
    "Epoch 43/200 (runs/scan_a):",
    " 17%|" + "#" * 5 + "   | 2/12 [00:00<00:04,  2.10it/s]Traceback (most recent call last):",
    '  File "scan/main.py", line 120, in <module>',
    "    main()",
    "KeyboardInterrupt",
]


def test_a_traceback_glued_to_an_in_epoch_bar_is_in_the_header_epoch(tmp_path):
    log = _log(tmp_path, _EPOCHS_THEN_GLUED_TRACEBACK)
    assert _steps(log, "failure") == [43]


def test_a_run_long_bar_glued_to_a_report_keeps_its_count(tmp_path):
    # the HF Trainer's bar counts the run's steps: a report glued after it happened at that count
    lines = [
        "***** Running training *****",
        "  Num examples = 5000",
        "  Total optimization steps = 900",
        "{'loss': 1.2345, 'learning_rate': 4e-05, 'epoch': 0.5}",
        " 40%|████      | 360/900 [02:00<03:00,  3.00it/s]Traceback (most recent call last):",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB",
    ]
    log = _log(tmp_path, lines)
    assert _steps(log, "failure")[0] == 360


#: The HF Trainer inside a cloud job's log viewer: its bar, a save into ``checkpoint-N/`` seconds later,
#: then the dict logged at that step (no step key of its own).
_TRAINER_SAVE = [
    "INFO    2023-05-02 10:00:01 +0000   worker-0    12%|█▏        | 1488/12000 [10:02<70:10,  2.50it/s]",
    "ERROR   2023-05-02 10:00:06 +0000   worker-0   Configuration saved in /out/run7/checkpoint-1500/config.json",
    "INFO    2023-05-02 10:00:06 +0000   worker-0   {'loss': 2.4817, 'learning_rate': 3.1e-05, 'epoch': 1.25}",
]


def test_a_save_into_a_step_folder_gives_the_step(tmp_path):
    log = _log(tmp_path, _TRAINER_SAVE)
    assert log.series("loss") == [(1500, 2.4817)]
    assert _steps(log, "checkpoint") == [1500]


def test_a_checkpoint_file_numbered_otherwise_keeps_the_training_step(tmp_path):
    lines = [f"step {s} loss {3 - s / 1000:.3f}" for s in (100, 200, 300)]
    lines.append("saving checkpoint to out/checkpoint_3.pth")
    log = _log(tmp_path, lines)
    assert _steps(log, "checkpoint") == [300]


#: A splatting trainer's bar, then its evaluation of the test and the train split: L1 and PSNR, no loss.
_EVAL_ERRORS = [
    "Training progress:  10%|█    | 3000/30000 [00:40<06:00, 75.00it/s, Loss=0.0642]",
    "[ITER 3000] Evaluating test: L1 0.0153 PSNR 31.20",
    "[ITER 3000] Evaluating train: L1 0.0121 PSNR 33.05",
]


def test_an_evaluation_error_is_the_validation_loss(tmp_path):
    log = _log(tmp_path, _EVAL_ERRORS)
    assert log.series("val_loss") == [(3000, 0.0153)]
    assert log.series("loss") == [(3000, 0.0642)]


def test_an_evaluation_with_a_loss_keeps_it(tmp_path):
    lines = [
        "step 100 loss 2.10",
        "step 200 loss 1.90",
        "Validation: step 200 loss 2.05 mse 0.31",
    ]
    log = _log(tmp_path, lines)
    assert [v for _s, v in log.series("val_loss")] == [2.05]


def test_a_json_record_cut_at_the_end_gives_its_complete_pairs(tmp_path):
    lines = [
        f'{{"train_lr": 0.0001, "train_loss": {1.5 - e / 10:.2f}, "epoch": {e}, "val_loss": {1.4 - e / 10:.2f}}}'
        for e in range(5)
    ]
    lines.append('{"train_lr": 0.0003, "train_loss": 0.97, "epoch": 5, "val_lo')
    path = tmp_path / "log.txt"
    path.write_text("\n".join(lines), encoding="utf-8")
    log = parse_log(str(path))
    assert log.series("loss")[-1] == (5, 0.97)
    assert log.series("val_loss")[-1] == (4, 1.0)


def test_a_json_record_cut_before_its_epoch_goes_on_by_the_stride(tmp_path):
    lines = [f'{{"train_loss": {4.0 - e / 100:.3f}, "train_lr": 0.0005, "epoch": {e}}}' for e in range(40, 46)]
    lines.append('{"train_loss": 3.533, "train_lr": 0.00049, "train_w')
    path = tmp_path / "log.txt"
    path.write_text("\n".join(lines), encoding="utf-8")
    log = parse_log(str(path))
    assert log.series("loss")[-1] == (46, 3.533)


def test_the_epoch_an_evaluation_reports_on_is_no_value(tmp_path):
    lines = [
        "2025-03-01 10:00:00,001 P1200 INFO ********** Epoch=1 start **********",
        "2025-03-01 10:05:00,001 P1200 INFO Train loss: 0.512",
        "2025-03-01 10:05:00,002 P1200 INFO Evaluation @epoch 1 - batch 900: ",
        "2025-03-01 10:05:10,001 P1200 INFO ********** Epoch=2 start **********",
        "2025-03-01 10:10:00,001 P1200 INFO Train loss: 0.498",
        "2025-03-01 10:10:00,002 P1200 INFO Evaluation @epoch 2 - batch 900: ",
    ]
    log = _log(tmp_path, lines)
    assert not log.series("val_epoch")
    assert [v for _s, v in log.series("loss")] == [0.512, 0.498]
