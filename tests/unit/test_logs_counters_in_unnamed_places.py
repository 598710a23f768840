"""Counters a record prints without a step word (issue 25): a bracketed number before a separator
(``[21500] | gnorm 0.25 ...``), a position with its total opening the line (``1290/2680 = 48.1%, ...``), an
iteration that opens each line like a process's rank tag (``25001: total loss: 4.87``); a log of one line per
epoch whose lines say they average (``[epoch 017]  average training loss: ...``), and an evaluation announced
by a banner (``>>>> Start Evaluation >>>>``). Own-written logs in those shapes, through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_a_bracketed_number_before_a_separator_is_the_step(tmp_path):
    lines = [f"I0704 22:{k:02d}:42.730550 1405 train_gpu.py:303] [{k * 500}] | gnorm 0.25 lr 0.0002 | loss {8 - k / 10:.2f} | pplx 2081.29"
             for k in range(1, 6)]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [500, 1000, 1500, 2000, 2500]


def test_a_position_with_its_total_opening_the_line_is_the_step(tmp_path):
    lines = [f"{k}/2680 = {k / 26.8:.1f}%, SPS: 0.1, ELAP: 4:02:03, ETA: 4:20:49 - loss: {20 - k / 100:.4f}" for k in range(100, 600, 100)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss")[-1] == (500, 15.0)


def test_an_iteration_opening_each_line_is_no_rank(tmp_path):
    lines = ["25000: saving to results", "25000: saving model to results"]
    lines += [f"{25000 + k}: total loss: {4 + k / 10:.3f}, recon loss: 0.001" for k in range(1, 8)]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == list(range(25001, 25008))


def test_a_log_of_one_averaging_line_per_epoch_keeps_its_records(tmp_path):
    lines = [f"tool:stage: [epoch {e:03d}]  average training loss: {2100 - e:.4f}" for e in range(17, 22)]
    lines.insert(3, "tool:stage: [epoch 019] average test loss: 2020.9930")
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [17, 18, 19, 20, 21]
    assert log.series("val_loss") == [(19, 2020.993)]


def test_a_banner_that_starts_the_evaluation_makes_its_line_the_evaluations(tmp_path):
    lines = []
    for epoch in (5, 6):
        lines.append(f"[2024-11-15 13:50:52,703 INFO train.py line 103] epoch: {epoch}/50, train loss: -0.{epoch}000")
    lines.append("[2024-11-15 13:55:43,832 INFO train.py line 125] >>>>>>>> Start Evaluation >>>>>>>>")
    lines.append("[2024-11-15 13:56:31,374 INFO train.py line 273] epoch: 6/50, total loss: -0.0713, sem loss: 0.4287")
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss")[-1][1] == -0.6
    assert [v for _, v in log.series("val_loss")] == [-0.0713]


def test_a_step_count_that_stays_while_the_epoch_goes_up_is_the_epochs_length(tmp_path):
    lines = []
    for epoch in (6, 7):
        lines.append(f"Epoch {epoch} |   Training | Elapsed Time: 0:01:55 | Steps: 289 | Loss: {60 - epoch:.6f}")
        lines.append(f"Epoch {epoch} | Validation | Elapsed Time: 0:00:27 | Steps: 176 | Loss: {70 - epoch:.6f} | Dataset: dev.csv")
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(6, 54.0), (7, 53.0)]
    assert [s for s, _ in log.series("val_loss")] == [6, 7]


def test_a_best_kept_from_an_infinite_start_is_no_divergence(tmp_path):
    lines = [f"Epoch {e} - loss={2 - e / 10:.4f} val_loss={2.1 - e / 10:.4f} val_best_loss={'inf' if e == 1 else f'{2.2 - e / 10:.4f}'}"
             for e in range(1, 5)]
    log = parse_log(write_log(tmp_path, lines))
    assert "nan" not in log.event_kinds()
    lines[2] = "Epoch 3 - loss=nan val_loss=1.8000 val_best_loss=1.9000"
    assert "nan" in parse_log(write_log(tmp_path, lines, "diverged.log")).event_kinds()
