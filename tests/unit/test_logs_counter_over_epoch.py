"""A line that opens with a counter and its total and names a (fractional) epoch beside it: the counter is the
step, never the epoch; read through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_the_leading_counter_is_the_step_not_the_fractional_epoch(tmp_path):
    lines = [
        f"{n}/5000 (epoch {n / 250:.3f}), train_loss = {2.5 - n / 1000:.3f}, time/batch = 0.18s" for n in (100, 110, 120)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(100, 2.4), (110, 2.39), (120, 2.38)]


def test_an_epoch_log_without_a_counter_still_counts_epochs(tmp_path):
    lines = [f"epoch {k} train_loss = {1.0 - k / 10:.2f}" for k in (1, 2, 3)]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [1, 2, 3]
