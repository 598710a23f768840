"""A report over a range of batches (``Minibatch[ 501-1000]``, ``minibatches 40-49``) is at the range's end,
whether the range is spaced or glued, read at the line and across the template's records; a range that does
not go forward (a date, ``2024-01``) is no counter. Through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_a_spaced_range_in_brackets_is_at_its_end(tmp_path):
    lines = [
        f" Pass[ 1 of 2]-Minibatch[{lo:4d}-{hi:4d}]: SamplesSeen = 500; train_loss = {v}; TotalTime = 2.1s"
        for lo, hi, v in ((1, 500, 5.87), (501, 1000, 4.12), (1001, 1500, 3.5))
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(500, 5.87), (1000, 4.12), (1500, 3.5)]


def test_a_glued_range_after_its_counter_word_is_at_its_end(tmp_path):
    lines = [
        f"LOG (trainer:Report():report.cc:88) stats for minibatches {lo}-{lo + 9}: loss {v} over 19000 frames."
        for lo, v in ((40, 2.5), (50, 2.4), (60, 2.3))
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(49, 2.5), (59, 2.4), (69, 2.3)]


def test_a_date_is_no_range(tmp_path):
    lines = [f"2024-01-0{k} iter {k * 10} loss 0.{k}" for k in (1, 2, 3)]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [10, 20, 30]
