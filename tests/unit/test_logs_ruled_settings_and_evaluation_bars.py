"""A block of settings under a ruled title, an evaluation's heading with its size in brackets, and a save told in
the passive (issue 25). ``------Run Details------`` over ``epoch : 500`` rows is the run's settings, no epoch
opened and no step (the records after it, and a save before them, keep their own steps); ``Start evaluating
(total_samples: 40, total_iters: 40)...`` heads the evaluation's progress bar even where a library's warnings
stand between them, so the bar's batches are no training records; ``The model with the best validation mIoU
(0.71) was saved at iter 300.`` is a checkpoint. Own-written logs in those shapes, through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_a_ruled_block_of_settings_opens_no_epoch_and_gives_no_step(tmp_path):
    lines = [
        "------Run Details------",
        "Network : TinyNet",
        "epoch : 500",
        "batch_size : 64",
        "learning_rate : 0.002",
        "-----------------------",
        "INFO:tensorflow:Saving checkpoints for 0 into runs/tiny/model.ckpt.",
    ]
    for step in range(1, 302, 100):
        lines += [f"INFO:tensorflow:global_step = {step}, train loss = {2.0 / step:.5f}, train accuracy = 0.5",
                  f"INFO:tensorflow:Saving checkpoints for {step + 99} into runs/tiny/model.ckpt."]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [1, 101, 201, 301]
    assert "lr" not in {row["name"] for row in log.metrics.to_pylist()}  # a setting, no point of a curve
    assert [e["step"] for e in log.events if e["kind"] == "checkpoint"][0] == 0


def test_a_block_titled_with_no_settings_word_is_read_as_before(tmp_path):
    lines = ["------Epoch 3------"] + [f"step {s} loss: {1 / s:.4f}" for s in (10, 20, 30)]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [10, 20, 30]


def _segmentation_run() -> list[str]:
    lines = []
    for it in range(10, 310, 10):
        lines.append(f"2024-05-06 07:08:09 [INFO]\t[TRAIN] epoch: {it // 100 + 1}, iter: {it}/600, loss: {1 / it:.4f}, "
                     f"lr: 0.009, batch_cost: 0.18, reader_cost: 0.00005, ips: 21.6 samples/sec | ETA 00:01:00")
    lines += [
        "2024-05-06 07:08:10 [INFO]\tStart evaluating (total_samples: 40, total_iters: 40)...",
        "/env/lib/python3.8/site-packages/paddle/tensor/math.py:12: UserWarning: The dtype of left and right differ",
        "  format(lhs_dtype, rhs_dtype)",
        "\r".join(f"{n}/40 [{'=' * (n // 4)}>{'.' * (10 - n // 4)}] - ETA: 1s - batch_cost: 0.04 - reader cost: 0.001"
                  for n in range(1, 41, 3)),
        "2024-05-06 07:08:12 [INFO]\t[EVAL] #Images: 40 mIoU: 0.7100 Acc: 0.9900 Kappa: 0.7000",
        "2024-05-06 07:08:12 [INFO]\t[EVAL] The model with the best validation mIoU (0.7100) was saved at iter 300.",
    ]
    return lines


def test_an_evaluations_bar_under_its_heading_is_no_training_record(tmp_path):
    log = parse_log(write_log(tmp_path, _segmentation_run()))
    steps = [s for s, _ in log.series("loss")]
    assert steps == list(range(10, 310, 10))
    training = {row["step"] for row in log.metrics.to_pylist() if not row["name"].startswith(("val_", "epoch"))}
    assert max(s for s in training if s is not None) == 300
    assert "restart" not in log.event_kinds()


def test_a_save_told_in_the_passive_is_a_checkpoint_at_the_training_step(tmp_path):
    log = parse_log(write_log(tmp_path, _segmentation_run()))
    assert [e["step"] for e in log.events if e["kind"] == "checkpoint"] == [300]
