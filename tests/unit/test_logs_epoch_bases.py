"""How shared training loggers number their epochs (``_epoch_bases.PRINTERS``, read from their source code), and
the one recogniser of lines that open an epoch (``_epochs.epoch_opened``), through the whole ``parse_log`` path.
Every row's example is own-worded, in the printer's shape."""

from __future__ import annotations

import pytest
from log_files import write_log

from assay.operators.logs import parse_log
from assay.operators.logs._epoch_bases import EPOCH, GLOBAL, PRINTERS, printer_of


def _log(tmp_path, lines):
    return parse_log(write_log(tmp_path, list(lines)))


def _steps(log, name="loss"):
    return [step for step, _ in log.series(name)]


@pytest.mark.parametrize("row", PRINTERS, ids=[row.printer[:40] for row in PRINTERS])
def test_every_printer_rows_example_is_read_at_its_steps(tmp_path, row):
    log = _log(tmp_path, row.example)
    assert _steps(log) == list(row.steps)
    assert log.events == []  # a counter starting again at an epoch is no restart


@pytest.mark.parametrize("row", PRINTERS, ids=[row.printer[:40] for row in PRINTERS])
def test_every_row_is_complete_and_knows_its_own_example(row):
    assert row.first_epoch in (0, 1) and row.first_index in (0, 1, None)
    assert row.step in (GLOBAL, EPOCH)
    assert ":" in row.source and "/" in row.source.split(":")[0]  # owner/repo:path
    found = [printer_of(line) for line in row.example]
    assert any(f is not None and f[0] is row for f in found)
    # a row's first match in its example is itself (a row above it does not take its shape)
    first = next(f for f in found if f is not None)
    assert first[0] is row


def test_a_zero_based_printer_excerpt_from_a_later_epoch(tmp_path):
    # DeiT-style: epoch 2 is the third (``range(0, epochs)``), 800 batches each: 2 * 800 + i
    lines = [
        f"[1,0]<stdout>:Epoch: [2]  [{i:>3}/800]  eta: 0:05:00  lr: 0.000300  loss: 6.{i // 10:02d} (6.90)  "
        f"time: 0.9000  data: 0.0020  max mem: 9000"
        for i in (100, 110, 120)
    ]
    log = _log(tmp_path, lines)
    assert _steps(log) == [1700, 1710, 1720]


def test_a_one_based_printer_excerpt_keeps_the_general_rule(tmp_path):
    lines = [
        f"2023-02-01 10:00:0{k} - mmseg - INFO - Epoch [5][{i}/200]\tlr: 1.000e-02, eta: 2:00:00, time: 0.3, "
        f"data_time: 0.01, memory: 4000, decode.loss_ce: 0.5{k}, loss: 0.6{k}"
        for k, i in ((1, 100), (2, 150))
    ]
    assert _steps(_log(tmp_path, lines)) == [900, 950]


def test_the_text_wins_over_the_table(tmp_path):
    # an epoch 0 named by a one-based printer's shape: the run counts from 0 whatever the row says
    lines = [
        f"2024/01/02 03:04:0{k} - mmengine - INFO - Epoch(train)  [{e}][{i}/300]  lr: 1.0000e-03  eta: 1:00:00  "
        f"time: 0.4000  data_time: 0.0100  memory: 5000  loss: 1.{k}000"
        for k, (e, i) in enumerate(((0, 250), (0, 300), (1, 50)))
    ]
    assert _steps(_log(tmp_path, lines)) == [250, 300, 350]


def test_an_epoch_printed_without_its_word_by_a_known_printer(tmp_path):
    # timm prints the epoch bare after ``Train:``; the counter starts again each epoch
    lines = [
        f"Train: {e} [{i:>4d}/1000 ({i // 10:>3d}%)]  Loss: 2.{i // 100} (2.5)  Time: 0.3s, 800.0/s  LR: 1.000e-03"
        for e, i in ((0, 900), (0, 999), (1, 0), (1, 100))
    ]
    log = _log(tmp_path, lines)
    assert _steps(log) == [900, 999, 1000, 1100]
    assert "restart" not in log.event_kinds()


# --- the lines that open an epoch, one recogniser for records and events -----------------------------------------


def _event_steps(log, kind):
    return [e["step"] for e in log.events if e["kind"] == kind]


def test_an_oom_after_a_banner_behind_a_logger_level_is_in_its_epoch(tmp_path):
    # the banner the records' epochs come from (after the logger's level) places a failure before any record too
    lines = [
        "2025-02-03 04:05:06,100 P881 INFO Start training: 500 batches/epoch",
        "2025-02-03 04:05:06,200 P881 INFO ************ Epoch=7 start ************",
        "Traceback (most recent call last):",
        '  File "/home/me/ctr/run.py", line 30, in <module>',
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
    ]
    log = _log(tmp_path, lines)
    assert _event_steps(log, "oom") == [7]


def test_a_failure_under_a_bar_over_the_epochs_is_in_the_epoch_it_counts(tmp_path):
    # tqdm's ``trange(epochs, desc="Epoch")``: its count is the epochs done, the run is in that epoch (from 0); the
    # percentage beside it is no epoch
    lines = [
        "2022-04-05 06:07:08 - Warmup-steps: 300",
        "Iteration:   0%|          | 0/1200 [00:00<?, ?it/s]",
        "Epoch:  40%|####      | 2/5 [20:00<30:00, 600.00s/it]",
        "Traceback (most recent call last):",
        '  File "fit_pairs.py", line 50, in <module>',
        "    model.fit(train_objectives=objectives, epochs=5)",
        "RuntimeError: expected scalar type Half but found Float",
    ]
    log = _log(tmp_path, lines)
    assert _event_steps(log, "failure") == [2]
