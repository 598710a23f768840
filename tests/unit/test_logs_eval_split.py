"""Every value printed after an evaluation word belongs to that split, not only its loss (issue 25: a record of
evaluation values is no training series): ``testing psnr = 31.0, ssim = 0.91`` gives ``val_psnr`` and
``val_ssim`` apart from the training ``psnr``. A name that already says its split keeps it. Each log is
written here in the shapes such loops print, through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_values_after_testing_are_the_evaluation_split(tmp_path):
    lines = []
    for s in (1000, 2000, 3000):
        lines.append(f"iter {s} loss {0.05 - s / 1e6:.4f} psnr {28 + s / 1000:.2f}")
        lines.append(f"[iter {s}] testing psnr = {30 + s / 1000:.2f}, ssim = {0.9 + s / 1e5:.4f}")
    log = parse_log(write_log(tmp_path, lines))
    assert [v for _, v in log.series("psnr")] == [29.0, 30.0, 31.0]  # training's own, no longer mixed
    assert log.series("val_psnr") == [(1000, 31.0), (2000, 32.0), (3000, 33.0)]
    assert log.series("val_ssim")[-1] == (3000, 0.93)


def test_an_eval_record_beside_a_train_record_keeps_its_metrics_apart(tmp_path):
    lines = []
    for s in (500, 1000, 1500):
        lines.append(f"train | step {s} | loss {2 - s / 1000:.3f} | lr 0.0003")
        lines.append(f"eval | step {s} | accuracy {0.6 + s / 10000:.3f} | f1 {0.5 + s / 10000:.3f}")
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("val_accuracy")[-1] == (1500, 0.75)
    assert log.series("val_f1")[-1] == (1500, 0.65)
    assert log.series("accuracy") == []


def test_training_values_and_a_named_split_are_left_as_they_are(tmp_path):
    lines = [
        f"step {s} train loss {2 - s / 1000:.3f} acc {0.5 + s / 10000:.3f} val_acc {0.45 + s / 10000:.3f}"
        for s in (500, 1000, 1500)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("acc")[-1] == (1500, 0.65)
    assert log.series("val_acc")[-1] == (1500, 0.6)
    assert log.series("loss")[-1] == (1500, 0.5)


def test_a_line_ending_with_its_blocks_split_names_the_values_under_it(tmp_path):
    # a header that names the block's split last (``- val metrics:``), then one key and value a line
    lines = []
    for epoch in (2, 4):
        lines.append(f"2024-05-06 07:08:0{epoch},100 cifar INFO: ")
        lines += [f"Epoch {epoch} - Evaluation time (seconds): 6.10 - train metrics:", f"\tAccuracy: 0.{epoch}1",
                  f"\tLoss: 1.{epoch}0"]
        lines.append(f"2024-05-06 07:08:0{epoch},900 cifar INFO: ")
        lines += [f"Epoch {epoch} - Evaluation time (seconds): 1.20 - val metrics:", f"\tAccuracy: 0.{epoch}5",
                  f"\tLoss: 1.{epoch}8"]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("val_loss") == [(2, 1.28), (4, 1.48)]
    assert log.series("loss") == [(2, 1.2), (4, 1.4)]


def test_a_test_error_is_no_validation_loss_where_a_line_names_that_loss(tmp_path):
    lines = []
    for epoch in (1, 2, 3):
        lines += [f"Epoch {epoch}, Step {k}, avg loss so far is {0.2 / epoch + k / 1000:.4f}" for k in (10, 20)]
        lines.append(f"Epoch {epoch}, val loss is {0.05 / epoch:.4f}, val mse is {0.02 / epoch:.4f}.")
        lines.append(f"Epoch {epoch}, test mse is {0.01 / epoch:.4f}.")
    log = parse_log(write_log(tmp_path, lines))
    assert [v for _, v in log.series("val_loss")] == [0.05, 0.025, 0.0167]
    assert [v for _, v in log.series("test_mse")] == [0.01, 0.005, 0.0033]


def test_an_abbreviated_split_word_names_its_lines_split(tmp_path):
    # ``Train.`` and ``Val.`` with their full stops, one line each per epoch
    lines = []
    for epoch in range(4):
        lines.append(f"Epoch: {epoch}, Loss: {1.6 - epoch / 10:.2f}")
        lines.append(f"Train. Total Loss: {1.6 - epoch / 10:.2f}, KL: 0.10, AUC: 50.{epoch}0%")
        lines.append(f"Val. Total Loss: {1.8 - epoch / 10:.2f}, KL: 0.20, AUC: 60.{epoch}0%")
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("val_loss") == [(0, 1.8), (1, 1.7), (2, 1.6), (3, 1.5)]
    assert {v for _, v in log.series("loss")} == {1.6, 1.5, 1.4, 1.3}  # the validation's 1.8 is none of them


def test_a_split_in_a_words_parenthesis_makes_the_record_the_splits(tmp_path):
    # mmengine's ``Epoch(val)``: its timings and scores are the evaluation's, no training record at the epoch
    prefix = "2024/03/04 10:00:{:02d} - mmengine - INFO - "
    lines = []
    for e in (1, 2, 3):
        lines += [
            prefix.format(e) + f"Epoch(train)  [{e}][ 80/90]  lr: 1.0000e-03  time: 0.18  memory: 2800  "
            f"loss: {1.5 - e / 5:.4f}",
            prefix.format(e) + f"Epoch(val)  [{e}][40/45]    eta: 0:00:00  time: 0.0150  data_time: 0.0003  memory: 2800",
            prefix.format(e) + f"Epoch(val) [{e}][45/45]    accuracy/top1: {70 + e:.4f}  data_time: 0.0020  time: 0.0170",
            prefix.format(e) + f"The best checkpoint with {70 + e:.4f} accuracy/top1 at {e} epoch is saved to best.pth.",
        ]
    log = parse_log(write_log(tmp_path, lines))
    names = set(log.metrics.column("name").to_pylist())
    assert [s for s, _ in log.series("loss")] == [80, 170, 260]
    # at the training step before them, not at the epoch their tag's bracket counts (three epochs step evenly)
    assert log.series("val_accuracy_top1") == [(80, 71.0), (170, 72.0), (260, 73.0)]
    assert "restart" not in log.event_kinds()
    assert {"val_data_time", "val_memory_mb"} <= names and "data_time" not in names
    # nor is the sentence after it a record: ``with 71.0`` names nothing, ``at 1 epoch`` says where
    assert "with" not in names and "accuracy_top1" not in names and "val_epoch_val" not in names


def test_records_in_the_trainings_shape_end_an_evaluations_heading(tmp_path):
    # a heading, the evaluation's result, then the training's records again in the shape they had before it:
    # they are the training's, though they print no counter word the reader knows
    def record(k: int) -> str:
        return f"round {k} | loss {0.9 - k / 20:.3f} | acc {0.5 + k / 50:.2f} | lr 0.001"

    result = '{"results": {"fid_full": 41.5}, "metric": "fid_full", "total_time": 70.1}'
    log = parse_log(write_log(tmp_path, [record(1), record(2), "Evaluating the generator...", result, record(3), record(4)]))
    assert log.series("loss") == [(1, 0.85), (2, 0.8), (3, 0.75), (4, 0.7)]
    names = {r["name"] for r in log.metrics.to_pylist()}
    assert "val_fid_full" in names and not any(n.startswith("val_") and "round" in n for n in names)
