"""A JSON record whose counters are strings with their totals (``"epoch": "3/40"``, ``"iter": "25/120"``):
the iteration counts within the epoch and goes on from the epochs before, as the same counters printed
without quotes do. Through the whole ``parse_log`` path."""

from __future__ import annotations

import json

from log_files import write_log

from assay.operators.logs import parse_log


def _stats(epoch: int, it: int, loss: float) -> str:
    record = {"_type": "train_iter", "dt": 1.2, "epoch": f"{epoch}/40", "iter": f"{it}/120", "loss": loss, "lr": 0.1}
    return f"[05/02 11:00:00][INFO] meter.py:  80: json_stats: {json.dumps(record)}"


def test_string_counters_count_on_from_the_epochs_before(tmp_path):
    lines = [_stats(3, 20, 2.0), _stats(3, 40, 1.9), _stats(4, 20, 1.8)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(2 * 120 + 20, 2.0), (2 * 120 + 40, 1.9), (3 * 120 + 20, 1.8)]


def test_the_same_counters_without_quotes_agree(tmp_path):
    lines = [f"epoch: {e}/40, iter: {i}/120, loss: {v}" for e, i, v in ((3, 20, 2.0), (3, 40, 1.9), (4, 20, 1.8))]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [260, 280, 380]
