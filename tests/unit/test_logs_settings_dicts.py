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


def test_a_nested_settings_dict_between_records_is_no_record(tmp_path):
    # a restart prints its settings again with ``pprint``: dicts inside dicts, their fields on the lines that
    # open them (``'loader': {'batch_size': 10,``) or close two (``'log_iter': 1}}``)
    records = [
        f"2025-01-02 10:0{k}:00,100 segnet INFO: [3/200], [{k}/3], global_step: {20 + k}, loss: {2 - k / 10:.2f}"
        for k in (1, 2, 3)
    ]
    dump = [
        "2025-01-02 10:05:00,100 segnet INFO: {'dataset': {'train': {'args': {'mode': 'RGB'},",
        "                       'loader': {'batch_size': 10,",
        "                                  'shuffle': True}},",
        "                          'loader': {'batch_size': 1,",
        "                                     'shuffle': False}}},",
        " 'lr_scheduler': {'args': {'warmup_epoch': 3}, 'type': 'Poly'},",
        " 'trainer': {'epochs': 200, 'log_iter': 1}}",
    ]
    log = parse_log(write_log(tmp_path, records + dump + records))
    names = set(log.metrics.column("name").to_pylist())
    assert not {"batch_size", "warmup_epoch", "log_iter"} & names
