"""Epoch summaries that print the epoch's length (issue 25), as many time-series forecasting loops do:
``Epoch: 3, Steps: 9 | Train Loss: 0.41 Vali Loss: 0.45 Test Loss: 0.47`` then ``Updating learning rate to ...``
and an early stopper's ``Validation loss decreased (0.47 --> 0.45).  Saving model ...``. The plural step word
after the epoch counts the epoch's steps (no position: the lines after the summary stay at its epoch), the values
of a printed change ``(a --> b)`` are no series of their own, and the save after the report is a checkpoint.
Own-written logs in that shape, read through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _lines(epochs: int) -> list[str]:
    lines = ["Use GPU: cuda:0", ">>>>>>>start training : forecaster_sl96_pl24>>>>>>>>>>", "train 1199", "val 166"]
    for k in range(1, epochs + 1):
        lines += [
            f"Epoch: {k} cost time: 3.88",
            f"Epoch: {k}, Steps: 9 | Train Loss: {1 / k:.4f} Vali Loss: {1.1 / k:.4f} Test Loss: {1.2 / k:.4f}",
            f"Validation loss decreased ({1.1 / (k - 1) if k > 1 else float('inf'):.4f} --> {1.1 / k:.4f}).  Saving model ...",
            f"Updating learning rate to {1e-4 / 2 ** k}",
        ]
    return lines


def test_the_epochs_length_is_no_position_and_the_lines_after_stay_at_its_epoch(tmp_path):
    log = parse_log(write_log(tmp_path, _lines(4)))
    assert [s for s, _ in log.series("loss")] == [1, 2, 3, 4]
    assert [s for s, _ in log.series("lr")] == [1, 2, 3, 4]
    assert log.series("val_loss")[-1] == (4, 0.275)


def test_a_printed_change_is_no_series_and_the_save_after_it_a_checkpoint(tmp_path):
    log = parse_log(write_log(tmp_path, _lines(3)))
    names = {row["name"] for row in log.metrics.to_pylist()}
    assert names == {"loss", "val_loss", "test_loss", "lr"}
    assert [e["step"] for e in log.events if e["kind"] == "checkpoint"] == [1, 2, 3]
    assert "restart" not in log.event_kinds()
