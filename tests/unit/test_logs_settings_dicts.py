"""A Python dict of settings printed over lines (``pprint(vars(args))``) is no record: its ``'epoch': 200`` is
no step and its numbers no series; a dict of metrics printed so is still a record. Through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _settings_dump() -> list[str]:
    return [
        "2025-01-02 10:00:00.100 INFO: Parsed arguments:",
        "{'atom_fea_len': 64,",
        " 'batch_size': 32,",
        " 'cache_size': None,",
        " 'device': device(type='cpu'),",
        " 'epoch': 200.0,",
        " 'learning_rate': 0.001,",
        " 'task': 'regression',",
        " 'workers': 10}",
    ]


def test_a_python_dict_of_settings_printed_over_lines_is_no_record(tmp_path):
    lines = _settings_dump() + [
        f"2025-01-02 10:0{k}:00.100 INFO: Epoch [{k:03d}/200] - Train Loss: {9.0 - k:.3f}, Valid Loss: {9.5 - k:.3f}"
        for k in (1, 2, 3)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [1, 2, 3]
    assert not {"batch_size", "atom_fea_len", "workers"} & set(log.metrics.column("name").to_pylist())
    assert 200 not in set(log.metrics.column("step").to_pylist())


def test_a_python_dict_of_metrics_printed_over_lines_is_still_a_record(tmp_path):
    lines = []
    for step in (100, 200):
        lines += ["{'epoch': 1,", f" 'loss': {2.0 - step / 1000:.2f},", " 'lr': 0.0003,", f" 'step': {step}}}", ""]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(100, 1.9), (200, 1.8)]
