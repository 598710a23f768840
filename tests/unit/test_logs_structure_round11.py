"""Logs round 11 (issue 25): what a field does across a file's lines, each rule on a log written here in its
shape (own-worded tool output) and read through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_a_step_counter_that_never_moves_beside_a_rising_epoch_leaves_the_epoch_as_the_step(tmp_path):
    # a loop that prints one summary per epoch with the epoch's number of batches: ``Steps`` is the same on
    # every line, so it counts each epoch's batches, not the run's steps; the record is the epoch's
    lines = [
        f"Epoch {k} |   Fitting | Wall: 0:0{k}:1{k} | Steps: 7300 | Loss: {60 - k / 2:.4f}"
        for k in range(12, 17)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [12, 13, 14, 15, 16]
    assert log.series("loss")[-1] == (16, 52.0)


def test_a_still_counter_printed_with_its_total_is_still_made_global(tmp_path):
    # the same shape with the length printed (``Steps: 200/200``): the counter's total is the epoch's length,
    # and the epoch's last step is counted on from the epochs before (D7), not replaced by the epoch
    lines = [f"Epoch {k} | Steps: 200/200 | Loss: {3 - k / 10:.3f}" for k in range(1, 5)]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [200, 400, 600, 800]
