"""A line numbered only by the epoch bracket that the step records print before their own counter
(``[3/50], train_loss: 0.71`` beside ``[3/50], [5/5], global_step: 105, loss: ...``) is the epoch's, at the last
record's step: no step going back, no restart."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _records(epoch, first, n):
    return [
        f"2023-01-02 10:0{epoch}:{k:02d},100 segnet INFO: [{epoch}/50], [{k}/{n}], global_step: {first + k}, "
        f"loss: {1.0 - k / 100:.4f}, lr: 0.001"
        for k in range(1, n + 1)
    ]


def test_an_epoch_line_beside_finer_records_is_the_epochs_at_the_last_step(tmp_path):
    lines = _records(3, 100, 5)
    lines.append("2023-01-02 10:03:59,000 segnet INFO: [3/50], train_loss: 0.7100, time: 54.2, lr: 0.001")
    lines += _records(4, 105, 5)
    log = parse_log(write_log(tmp_path, lines))
    assert [e["kind"] for e in log.events] == []  # nothing went back
    assert log.series("epoch_loss") == [(105, 0.71)]
    assert [s for s, _ in log.series("loss")] == list(range(101, 111))
