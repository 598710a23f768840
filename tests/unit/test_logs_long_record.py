"""A record longer than the line templates used to read (a JSON object of a dozen keys after a logger's
prefix) keeps its later fields, read through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _record(it: int) -> str:
    stats = (
        '{"phase": "train", "batch_time": 0.377, "data_time": 0.004, "epoch": "3/90", "eta_str": "1:02:33", '
        f'"max_mem": "5.10G", "it": "{it}/500", "loss": {1.5 - it / 1000:.4f}, "lr": 0.025, '
        f'"acc_err": {40 - it / 100:.2f}, "grad_norm": {2.0 + it / 1000:.3f}}}'
    )
    return f"[03/05 11:22:{it % 60:02d} INFO] logger.py: 88: json_stats: {stats}"


def test_the_fields_at_the_end_of_a_long_record_are_kept(tmp_path):
    log = parse_log(write_log(tmp_path, [_record(120), _record(140), _record(160)]))
    names = set(log.metrics.column("name").to_pylist())
    assert {"loss", "lr", "grad_norm"} <= names, names
    assert [v for _, v in log.series("loss")] == [1.38, 1.36, 1.34]
    assert [v for _, v in log.series("grad_norm")] == [2.12, 2.14, 2.16]
