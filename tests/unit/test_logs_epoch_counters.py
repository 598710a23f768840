"""One rule for a record that prints its epoch and an in-epoch counter with its total, whatever the shape: the
step is the run's, ``(epoch - first) * total + i`` (``first`` 0 where the file names an epoch 0, else 1), and
the counter starting again as the epoch goes up is no restart. A bar drawn once per epoch (always at its total)
is the epoch's record: its step is the epoch. Guards: a run-wide counter beside an epoch stays as printed; a
counter going back with no new epoch, or an epoch going back after a resume, is still a restart."""

from __future__ import annotations

import json

from log_files import write_log

from assay.operators.logs import parse_log


def _log(tmp_path, lines):
    return parse_log(write_log(tmp_path, lines))


def _steps(log, name="loss"):
    return [step for step, _ in log.series(name)]


def _split_qualified(epoch: int, i: int, loss: float) -> str:
    return (
        f"2024/02/03 04:05:06 - mmengine - INFO - Epoch(train)  [{epoch}][{i:>3}/250]  lr: 1.2000e-03  "
        f"eta: 2 days, 1:02:03  time: 0.8100  data_time: 0.0100  memory: 20480  loss: {loss:.4f}"
    )


def test_an_epoch_qualified_by_its_split_makes_the_counter_global(tmp_path):
    lines = [
        _split_qualified(31, 200, 0.52),
        "2024/02/03 04:05:07 - mmengine - INFO - Exp name: toy_experiment_20240203",
        _split_qualified(32, 100, 0.51),
        _split_qualified(32, 200, 0.50),
        _split_qualified(33, 100, 0.49),
    ]
    log = _log(tmp_path, lines)
    # the epochs count from 1 (no epoch 0 named): (31 - 1) * 250 + 200, ...
    assert _steps(log) == [7700, 7850, 7950, 8100]
    assert log.series("epoch_train") == [] and [v for _, v in log.series("epoch")] == [31, 32, 32, 33]
    assert "restart" not in log.event_kinds()  # the counter starting again as the epoch goes up is no restart


def test_a_bar_drawn_once_per_epoch_is_the_epochs_record(tmp_path):
    lines = []
    for k in range(4):
        bar = "#" * 10
        lines.append(
            f"100%|{bar}| 900/900 [05:00<00:00,  3.00it/s, epoch={k + 1}/50, avg_epoch_loss={0.9 - k / 10:.3f}]"
        )
        lines.append(f"2022-01-02 03:04:05,000 : INFO : Epoch[{k}] Elapsed time 300.1 seconds")
        lines.append(f"2022-01-02 03:04:05,001 : INFO : Epoch[{k + 1}] Learning rate is 0.001")
    log = _log(tmp_path, lines)
    # the bar's ``epoch=k/50`` is the k-th epoch, numbered from 0 as the logger's ``Epoch[0]`` says
    assert _steps(log) == [0, 1, 2, 3]
    assert log.event_kinds() == []


def test_a_bar_per_epoch_without_an_epoch_zero_counts_from_one(tmp_path):
    lines = [
        f"100%|{'#' * 10}| 640/640 [01:00<00:00, 10.6it/s, epoch={k}/20, loss={1 - k / 10:.2f}]"
        for k in (1, 2, 3)
    ]
    assert _steps(_log(tmp_path, lines)) == [1, 2, 3]


def test_a_metric_logger_epoch_in_brackets(tmp_path):
    def line(epoch, i):
        return f"Epoch: [{epoch}]  [{i:>4}/1000]  eta: 0:10:00  lr: 0.000300  loss: 5.1234 (5.2000)  time: 0.61  max mem: 7000"

    # an epoch 0 named: epochs count from 0
    log = _log(tmp_path, [line(0, 900), line(0, 990), line(1, 0), line(1, 10)])
    assert _steps(log) == [900, 990, 1000, 1010]
    assert "restart" not in log.event_kinds()
    # none named: the MetricLogger's own base, 0 (its header prints the epoch of ``range(start_epoch, epochs)``,
    # ``_epoch_bases``), consistently over the epochs of the excerpt
    log = _log(tmp_path, [line(4, 990), line(5, 0), line(5, 10)])
    assert _steps(log) == [4990, 5000, 5010]
    assert "restart" not in log.event_kinds()


def test_a_bare_epoch_of_a_shape_no_printer_row_knows_counts_from_one(tmp_path):
    # a script's own line: no row of ``_epoch_bases`` knows its printer, so the general rule (from 1) holds
    log = _log(tmp_path, [f"epoch {e} | Batch {i}/1000 | loss 5.{i // 10}" for e, i in ((4, 990), (5, 0), (5, 10))])
    assert _steps(log) == [3990, 4000, 4010]
    assert "restart" not in log.event_kinds()


def test_a_run_wide_counter_beside_an_epoch_stays_as_printed(tmp_path):
    lines = [
        "epoch: 1, iter: 280/600, loss: 0.71",
        "epoch: 1, iter: 290/600, loss: 0.70",
        "epoch: 2, iter: 300/600, loss: 0.69",
        "epoch: 2, iter: 310/600, loss: 0.68",
    ]
    log = _log(tmp_path, lines)
    assert _steps(log) == [280, 290, 300, 310]
    assert log.event_kinds() == []


def test_a_gap_in_the_log_across_an_epoch_leaves_the_counter_an_epochs(tmp_path):
    # the counter started again with each epoch; the excerpt then lost lines from the middle of epoch 3 to the
    # end of epoch 4's, so once it goes on as the epoch goes up: a gap, not a counter of the whole run
    lines = [f"Epoch {e}[{i}/2000]: loss:{1 - e / 10 - i / 10000:.4f}, lr:0.001"
             for e, i in [(1, 500), (1, 1500), (2, 500), (2, 1500), (3, 500), (4, 1500), (5, 500)]]
    log = _log(tmp_path, lines)
    assert _steps(log) == [500, 1500, 2500, 3500, 4500, 7500, 8500]
    assert log.event_kinds() == []


def test_a_counter_going_back_within_its_epoch_is_still_a_restart(tmp_path):
    lines = [_split_qualified(5, i, 0.6) for i in (50, 100, 150, 200)]
    lines += [_split_qualified(5, i, 0.6) for i in (50, 100)]  # the same epoch again, from mid-way
    log = _log(tmp_path, lines)
    assert "restart" in log.event_kinds()


def test_an_epoch_going_back_after_a_resume_is_still_a_restart(tmp_path):
    lines = [_split_qualified(8, 100, 0.5), _split_qualified(8, 200, 0.49), _split_qualified(9, 100, 0.48)]
    lines += ["2024/02/03 05:00:00 - mmengine - INFO - resumed epoch: 7, iter: 1750"]
    lines += [_split_qualified(8, 100, 0.5), _split_qualified(8, 200, 0.49)]
    log = _log(tmp_path, lines)
    assert _steps(log)[:3] == [1850, 1950, 2100]
    assert "restart" in log.event_kinds()


def test_json_records_with_only_an_epoch_are_stepped_by_it(tmp_path):
    lines = [json.dumps({"train_loss": 2.5 - k / 10, "train_lr": 0.001, "epoch": k}) for k in (40, 41, 42)]
    assert _steps(_log(tmp_path, lines)) == [40, 41, 42]


def test_bare_bars_once_per_epoch_under_a_named_banner(tmp_path):
    # a bar of progress and rate only is no record, but drawn to its total once per epoch under the epoch's
    # banner (the run's folder in parentheses) it makes the summary line after it the epoch's
    bar = "#" * 20
    lines = []
    for k in (12, 13):
        lines += [
            f"Epoch {k}/300 (runs/toy_a):",
            f"100%|{bar}| 25/25 [00:03<00:00,  7.50it/s]",
            f"=> Train accuracy: {60 + k:.2f},   Loss: {1 - k / 100:.4f}",
        ]
    lines += ["Epoch 14/300 (runs/toy_a):", f" 20%|{bar[:4]}    | 5/25 [00:01<00:04,  4.10it/s]"]
    log = _log(tmp_path, lines)
    assert _steps(log) == [12, 13]


def test_an_epoch_zero_named_on_a_line_without_a_counter_counts_from_zero(tmp_path):
    lines = [
        "Epoch: [0] Total time: 0:05:00 (0.3 s / it)",
        "Epoch: [1]  [  0/100]  eta: 0:00:30  lr: 0.000100  loss: 4.2000 (4.2000)  time: 0.30",
        "Epoch: [1]  [ 50/100]  eta: 0:00:15  lr: 0.000100  loss: 4.1000 (4.1500)  time: 0.30",
    ]
    assert _steps(_log(tmp_path, lines)) == [100, 150]


def test_epoch_banners_and_bare_footers_number_the_lines_between_them(tmp_path):
    # an epoch-level log: the records print no counter; the banner (after the logger's level, ``=`` before the
    # number) opens the epoch, a footer that prints nothing else closes it, and the evaluation's batch (the
    # epoch's length) is no step of the run
    def at(text):
        return f"2023-07-08 09:10:11,120 P5521 INFO {text}"

    lines = [at("Start training: 900 batches/epoch"), at("======== Epoch=1 start ========")]
    lines += [at("Train loss: 0.6120"), at("Evaluation @epoch 1 - batch 900: "), at("[Metrics] AUC: 0.7011")]
    lines += [at("Save best model: monitor(max)=0.7011"), at("======== Epoch=1 end ========")]
    lines += [at("Train loss: 0.6010"), at("Evaluation @epoch 2 - batch 900: "), at("[Metrics] AUC: 0.7102")]
    log = _log(tmp_path, lines)
    assert log.series("loss") == [(1, 0.612), (2, 0.601)]
    assert "restart" not in log.event_kinds()


def test_a_bar_going_on_across_the_first_banner_counts_the_run(tmp_path):
    # the bar counts the whole run (30, 60, 90 of 1000) under per-epoch banners: the lines between take its
    # steps as printed, and nothing went back
    lines = []
    for k, n in ((1, 30), (2, 60), (3, 90)):
        if k > 1:
            lines += [
                f"epoch {k}/40",
                "",
                f"2025-01-02 03:04:05 INFO     next epoch. previous_epoch: {k - 1}, epoch: {k}",
            ]
        lines.append(
            f"steps:   {n // 10}%|#   | {n}/1000 [00:{n}<10:00,  1.10it/s, avr_loss={1 - n / 100:.2f}]"
        )
    log = _log(tmp_path, lines)
    assert _steps(log) == [30, 60, 90]
    assert "restart" not in log.event_kinds()


def test_one_record_an_epoch_short_of_its_end_is_made_global(tmp_path):
    # a record every 100 iterations of a 110-iteration epoch: one an epoch, always at iteration 100
    lines = [_split_qualified(epoch, 100, 1.0 - epoch / 10) for epoch in (1, 2, 3, 4)]
    log = _log(tmp_path, lines)
    assert _steps(log) == [100, 350, 600, 850]  # (epoch - 1) * 250 + 100
    assert [v for _, v in log.series("epoch")] == [1, 2, 3, 4]


def test_one_record_an_epoch_at_its_end_is_made_global_too(tmp_path):
    # an epoch of 250 iterations under a longer logging interval: MMEngine logs each epoch's last iteration,
    # [k][250/250], which is the run's iteration k * 250 (its evaluation lines are placed there too)
    lines = []
    for epoch in (1, 2, 3, 4):
        lines.append(_split_qualified(epoch, 250, 1.0 - epoch / 10))
        if epoch % 2 == 0:
            lines.append(
                f"2024/02/03 04:05:06 - mmengine - INFO - Epoch(val) [{epoch}][5/5]    coco/bbox_mAP: 0.{epoch}000  "
                "data_time: 0.0400  time: 0.0800"
            )
    log = _log(tmp_path, lines)
    assert _steps(log) == [250, 500, 750, 1000]
    assert [s for s, _ in log.series("val_coco_bbox_map")] == [500, 1000]
    assert "restart" not in log.event_kinds()


def test_a_bars_percentage_after_the_splits_epoch_word_is_no_epoch(tmp_path):
    # a runner that prints each epoch's finished bar as "k/N * Epoch (train): 100% 90/90 [..., loss=...]", then
    # the epoch's averages: the bar is at epoch k, not at "epoch 100", and no restart is read between epochs
    lines = []
    for k in (1, 2, 3):
        lines += [
            f"{k}/3 * Epoch (train): 100% 90/90 [00:41<00:00,  2.19it/s, iou=0.91, loss={0.5 - k / 10:.3f}]",
            f"{k}/3 * Epoch (valid): 100% 20/20 [00:05<00:00,  3.90it/s, iou=0.93, loss={0.45 - k / 10:.3f}]",
            f"{k}/3 * Epoch {k} (train): iou=0.9000 | loss={0.6 - k / 10:.4f}",
        ]
    log = _log(tmp_path, lines)
    assert sorted({s for s in _steps(log)}) == [1, 2, 3]
    assert "restart" not in log.event_kinds()


def test_completed_bars_with_no_epoch_beside_them_are_one_epoch_each(tmp_path):
    # a script that lets each epoch's bar finish and prints its validation on the line after: every finished
    # bar is the next epoch's last step, the length printed (250) makes the steps global
    lines = []
    for k in (1, 2, 3):
        loss = 0.9 - k / 10
        lines.append(f"100%|██████████| 250/250 [00:20<00:00, 12.40it/s, acc=0.8, loss={loss:.3f}]")
        lines.append(f"Round {k}: validation loss {loss + 0.05:.3f}")
    log = _log(tmp_path, lines)
    assert log.series("loss") == [(250, 0.8), (500, 0.7), (750, 0.6)]


def test_a_finished_bar_printed_twice_is_one_step(tmp_path):
    bar = "100%|██████████| 250/250 [00:20<00:00, 12.40it/s, loss=0.512]"
    log = _log(tmp_path, ["start of training", bar, bar, "done"])
    assert {s for s, _ in log.series("loss")} == {250}  # a reprint, no second epoch


def _bars_and_summaries(bar_loss, summary_loss) -> list[str]:
    lines = []
    for k in (1, 2, 3):
        lines.append(f"Epoch {k}/40 [train]: 100%|██████████| 120/120 [01:10<00:00,  1.7it/s, loss={bar_loss(k)}]")
        lines.append(f"Epoch {k}/40 [valid]: 100%|██████████| 15/15 [00:05<00:00,  2.9it/s]")
        lines.append(f"Epoch {k}/40 - Train Loss: {summary_loss(k)}, Valid Loss: {0.9 - k / 20:.4f}")
    return lines


def test_finished_bars_whose_loss_is_the_last_steps_are_step_records(tmp_path):
    # the bar shows the last batch's loss, the summary the epoch's mean: the bar is the epoch's last step,
    # made global by the length it prints
    log = _log(tmp_path, _bars_and_summaries(lambda k: f"{0.61 - k / 30:.3f}", lambda k: f"{0.7 - k / 25:.4f}"))
    assert sorted({s for s, _ in log.series("loss")}) == [120, 240, 360]


def test_finished_bars_whose_loss_is_the_epochs_number_the_epochs(tmp_path):
    # the bar's running loss ends at the epoch's mean, which the summary prints again: the records are epochs
    log = _log(tmp_path, _bars_and_summaries(lambda k: f"{0.7 - k / 25:.2f}", lambda k: f"{0.7 - k / 25:.4f}"))
    assert sorted({s for s, _ in log.series("loss")}) == [1, 2, 3]
