"""Shapes a structural reading gets right across tools (issue 25, reallogs13 round): a level's colon before an
epoch counter, a save announced by a bracketed tag or reported done in Chinese, an unnamed counter in brackets
beside the epoch. Each log is written here in the shape such tools print, through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _steps(log, name="loss"):
    return [s for s, _ in log.series(name)]


def test_a_level_and_its_colon_before_an_epoch_counter_leave_the_epoch_the_step(tmp_path):
    # ``INFO: Epoch [012/200] - ...``: the level's colon is a prefix; ``Epoch`` is no value of ``INFO``
    lines = [
        f"2024-05-06 07:08:{10 + k:02d}.100 INFO: Epoch [{12 + k:03d}/200] - Train Loss: {4.5 - k / 10:.4f}, "
        f"Valid Loss: {5.1 - k / 20:.4f}, LR: [0.0005]"
        for k in range(6)
    ]
    log = parse_log(write_log(tmp_path, lines, "regress.log"))
    assert _steps(log) == [12, 13, 14, 15, 16, 17]
    assert log.series("val_loss")[-1] == (17, 4.85)


def test_a_bracketed_save_tag_and_a_chinese_save_done_are_checkpoints(tmp_path):
    lines = []
    for k in range(4):
        lines.append(f"INFO: Epoch [{k + 1:03d}/50] - Train Loss: {2.0 - k / 10:.3f}, Valid Loss: {2.5 - k / 9:.3f}")
        if k in (1, 3):
            lines.append(f"INFO:   [SAVE] lowest validation loss so far, epoch {k + 1}.")
    log = parse_log(write_log(tmp_path, lines, "tagged_saves.log"))
    assert [(e["kind"], e["step"]) for e in log.events] == [("checkpoint", 2), ("checkpoint", 4)]

    lines = []
    for k in range(4):
        lines.append(f"Train epoch: 0, batch: {100 * (k + 1)}/9000, loss: {3.2 - k / 10:.4f}, time: 1.2s")
        lines.append(f"完成第{100 * (k + 1)}次的保存")
    log = parse_log(write_log(tmp_path, lines, "zh_saves.log"))
    assert [(e["kind"], e["step"]) for e in log.events] == [("checkpoint", s) for s in (100, 200, 300, 400)]


def test_a_bare_cost_is_the_loss_and_a_costed_time_is_not(tmp_path):
    # an NMT-style update line that calls its loss the cost; the timing ``time cost`` keeps its own name
    lines = [
        f"[2023-02-03 04:05:{k:02d}] Ep. 2 : Up. {3000 + 500 * k} : Sen. {120 + k},{k:03d} : Cost {4.9 - k / 10:.6f}"
        f" : Time {300 + k}.25s : {2100 + k}.50 words/s"
        for k in range(5)
    ]
    log = parse_log(write_log(tmp_path, lines, "nmt_updates.log"))
    assert [s for s, _ in log.series("loss")] == [3000, 3500, 4000, 4500, 5000]
    assert log.series("loss")[-1] == (5000, 4.5)

    lines = [f"step {10 * k}, loss {2.5 - k / 10:.2f}, time cost {0.4 + k / 100:.2f}s" for k in range(1, 5)]
    log = parse_log(write_log(tmp_path, lines, "timed.log"))
    assert log.series("loss")[-1] == (40, 2.1)
    assert "time_cost" in set(log.metrics.column("name").to_pylist())


def test_an_unnamed_counter_in_brackets_beside_the_epoch_is_the_step(tmp_path):
    # ``epoch 2[1400], ...``: the bracketed number rises by one stride across the epoch's change; the epoch does not
    lines = [f"epoch {2 + (k >= 4)}[{1000 + 200 * k}], loss: {6.0 - k / 4:.3f}, lr: 0.00020 " for k in range(8)]
    lines.insert(6, "save model: out/ocr_2200.h5")
    log = parse_log(write_log(tmp_path, lines, "ocr_iters.log"))
    assert _steps(log) == [1000 + 200 * k for k in range(8)]
    # the save's file carries the step it was taken at (between the records at 2000 and 2200)
    assert [(e["kind"], e["step"]) for e in log.events] == [("checkpoint", 2200)]


def test_a_table_of_rows_labelled_by_split_gives_each_splits_values(tmp_path):
    # after an epoch's banner, a report of one row a split (the first cell the split's name): the training row's
    # loss is the loss, the validation row's the validation loss, the test row's the test loss
    lines = []
    for epoch, (tr, va, te) in ((3, (0.91, 1.21, 1.30)), (4, (0.85, 1.17, 1.26))):
        lines += [
            f"Epoch  {epoch}",
            "Fitting: 100%|##########| 40/40 [00:02<00:00, 18.10it/s]",
            "┌───────┬────────┬──────────┐",
            "│ split │   loss │ accuracy │",
            "├───────┼────────┼──────────┤",
            f"│ train │ {tr:.4f} │   0.7000 │",
            f"│ vali  │ {va:.4f} │   0.6500 │",
            f"│ test  │ {te:.4f} │   0.6400 │",
            "└───────┴────────┴──────────┘",
        ]
    lines.append("validation loss improved, model saved")
    log = parse_log(write_log(tmp_path, lines, "split_table.log"))
    assert log.series("loss") == [(3, 0.91), (4, 0.85)]
    assert log.series("val_loss") == [(3, 1.21), (4, 1.17)]
    assert log.series("test_loss")[-1] == (4, 1.26)
    assert [(e["kind"], e["step"]) for e in log.events] == [("checkpoint", 4)]


def test_a_progress_counter_with_its_total_goes_on_from_the_epochs_before(tmp_path):
    # epoch 0 printed (by its evaluation), then epoch 1's training ``progress k/400``: the run counts epochs from 0,
    # so epoch 1's position k is step 400 + k, and the counter starting again is no restart
    lines = [f"Epoch 0 [DEV] progress {k}/60 loss {0.9 + k / 1000:.4f} tag_acc 0.81" for k in (40, 50)]
    lines.append("Epoch 1/8...")
    lines += [f"Epoch 1 [TRAIN] progress {k}/400 loss {0.7 - k / 1000:.4f} tag_acc 0.83" for k in (0, 10, 20, 30)]
    log = parse_log(write_log(tmp_path, lines, "tagger.log"))
    assert _steps(log) == [400, 410, 420, 430]
    assert "restart" not in log.event_kinds()


def test_a_json_record_printed_one_field_a_line_is_one_record(tmp_path):
    lines = []
    for it, loss in ((5000, 0.83), (5020, 0.81)):
        lines += [
            f'{{"acc_fg": 0.71{it % 7}, ',
            '  "eta": "0 days, 02:10:11",',
            f'  "iter": {it},',
            f'  "loss": {loss}, ',
            f'  "loss_box": {loss / 3:.4f},',
            '  "lr": 0.002000, ',
            f'  "time": 0.4{it % 9}}}',
        ]
    log = parse_log(write_log(tmp_path, lines, "stats.log"))
    assert log.series("loss") == [(5000, 0.83), (5020, 0.81)]
    assert log.series("lr")[-1] == (5020, 0.002)


def test_a_batch_range_counts_at_its_end_and_its_start_is_no_series(tmp_path):
    # ``Batch [1200-1250]``: the report is at 1250; the range's first number is the counter's, so a line cut
    # before any value (``Spe``) holds no training value; ``lossvalue`` is the loss's value
    lines = [
        f"INFO:root:Epoch[0] Batch [{b}-{b + 50}]\tSpeed: {300 + b % 7}.10 samples/sec\tacc=0.{40 + b // 50}"
        f"\tlossvalue={9.9 - b / 1000:.6f}"
        for b in range(1200, 1450, 50)
    ]
    lines.append("INFO:root:Epoch[0] Batch [1450-1500]\tSpe")
    log = parse_log(write_log(tmp_path, lines, "face_batches.log"))
    assert _steps(log) == [1250, 1300, 1350, 1400, 1450]
    assert log.series("loss")[-1] == (1450, 8.5)
    assert "batch" not in set(log.metrics.column("name").to_pylist())


def test_a_loss_logged_on_each_step_is_the_loss(tmp_path):
    # Lightning's ``on_step`` suffix: ``total_loss_step`` is the total loss at the bar's step
    lines = ["GPU available: True (cuda), used: True"]
    lines += [
        f"Epoch 0:  {4 * k}%|##        | {k}/25 [00:0{k}<00:12,  1.90it/s, v_num=3, total_loss_step={3.9 - k / 10:.2f}e+3,"
        f" lr_step=0.010, top_3_acc_step=0.2{k}]"
        for k in range(1, 5)
    ]
    log = parse_log(write_log(tmp_path, lines, "semantic.log"))
    assert log.series("loss")[-1] == (4, 3500.0)


def test_a_boosters_split_metric_pairs_give_the_loss_and_the_validation_loss(tmp_path):
    # a gradient-boosting evaluation list: ``train-rmse`` is the training objective's error, ``eval-rmse`` the
    # held-out one's; a score that rises (``eval-auc``) stays a metric of its own
    lines = [
        f"[2020-01-02 03:04:{r // 10:02d}] tracker relay [{r}]\ttrain-rmse:{9.0 - r / 10:.6f}\teval-rmse:"
        f"{9.5 - r / 20:.6f}\teval-auc:0.{60 + r // 10}"
        for r in range(10, 60, 10)
    ]
    log = parse_log(write_log(tmp_path, lines, "booster.log"))
    assert log.series("loss") == [(r, round(9.0 - r / 10, 6)) for r in range(10, 60, 10)]
    assert log.series("val_loss")[-1] == (50, 7.0)
    assert "eval_auc" in set(log.metrics.column("name").to_pylist()) or "val_auc" in set(
        log.metrics.column("name").to_pylist()
    )


def test_a_list_of_numbers_printed_alone_gives_its_whole_number_as_the_step(tmp_path):
    # a VITS-style trainer logs ``[global_step, lr]`` on a line of its own, then its loss terms
    lines = []
    for epoch, step in ((5, 1500), (6, 1800), (7, 2100)):
        lines += [
            f"INFO:my-voice:Train Epoch: {epoch} [3%]",
            f"INFO:my-voice:[{step}, 9.99{epoch}e-05]",
            f"INFO:my-voice:loss_disc=2.{epoch}1, loss_gen=3.{epoch}2, loss_fm=9.{epoch}0,loss_mel=18.{epoch}4",
            f"INFO:my-voice:====> Epoch: {epoch}",
        ]
    log = parse_log(write_log(tmp_path, lines, "voice.log"))
    assert [s for s, _ in log.series("loss_gen")] == [1500, 1800, 2100]
