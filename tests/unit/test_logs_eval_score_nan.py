"""A NaN in an evaluation's score (an average over a class it saw no sample of) is no divergence; a NaN in the
training loss or in an evaluation's loss still is one. Through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _epoch(k: int, class_acc: str, loss: str) -> list[str]:
    return [
        f"**** EPOCH {k:03d} ****",
        *[f"mean loss: {loss if i == 2 else f'0.{90 - 10 * k - i}'}" for i in range(3)],
        "----",
        f"eval mean loss: 0.{70 - k}",
        f"eval accuracy: 0.{40 + k}",
        f"eval avg class acc: {class_acc}",
    ]


def test_a_nan_eval_class_accuracy_is_no_event(tmp_path):
    log = parse_log(write_log(tmp_path, _epoch(0, "nan", "0.5") + _epoch(1, "0.31", "0.4")))
    assert not [e for e in log.events if e["kind"] == "nan"]


def test_a_nan_training_loss_is_still_an_event(tmp_path):
    log = parse_log(write_log(tmp_path, _epoch(0, "0.30", "0.5") + _epoch(1, "nan", "nan")))
    assert [e["step"] for e in log.events if e["kind"] == "nan"] == [1]
