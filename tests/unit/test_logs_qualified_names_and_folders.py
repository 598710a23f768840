"""Two readings of a field's words (issue 25): a word the synonym table reads alone as a compound name
(``scale`` for ``loss_scale``) names another quantity after a qualifier that is no part of that name (CLIP's
``Logit Scale`` is its temperature, never a loss scale), and a folder's name glued to a date with plus signs
(``results/CKPT+2024-01-01+10-00-00+00``, as a checkpoint line prints it) is one word, not a key and its values.
Own-written logs in those shapes, read through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_a_qualified_scale_is_no_loss_scale(tmp_path):
    lines = [
        f"Step {i} | Logit Scale: {14 + i / 10:.2f} | scale: {2 ** (16 - i)} | Loss: {3 - i / 10:.2f}"
        for i in range(1, 4)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("logit_scale")[-1][1] == 14.3
    assert log.series("loss_scale")[-1][1] == 8192.0
    assert log.series("loss")[-1][1] == 2.7


def test_a_folder_glued_to_a_date_is_no_metric(tmp_path):
    lines = [
        "asr.core - 12.3M trainable parameters",
        "asr.train_logger - epoch: 1, lr: 1.00e+00 - train loss: 1.42 - valid loss: 1.10",
        "asr.checkpoints - Saved an end-of-epoch checkpoint in results/CKPT+2024-01-01+10-00-00+00",
        "asr.train_logger - epoch: 2, lr: 1.00e+00 - train loss: 0.98 - valid loss: 0.87",
        "asr.checkpoints - Saved an end-of-epoch checkpoint in results/CKPT+2024-01-01+10-12-30+00",
    ]
    log = parse_log(write_log(tmp_path, lines))
    names = {row["name"] for row in log.metrics.to_pylist()}
    assert names == {"lr", "loss", "val_loss"}
    assert [s for s, _ in log.series("loss")] == [1, 2]
    assert "checkpoint" in log.event_kinds()
