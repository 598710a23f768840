"""A logger's bracketed date is no counter and its source location no value (issue 25): ``[2025/05/20 ...]`` and
``[05/20 00:23:44]`` (a date written without its year) never give a step of 2025 or 5, and ``train_net:  302:``
(a module and its line number between colons after the level's tag) is no series. Own-written lines through
``parse_log``."""

from __future__ import annotations

import pytest
from log_files import write_log

from assay.operators.logs import parse_log


@pytest.mark.parametrize("stamp", ["[2025/05/20 10:{:02d}:00][INFO]", "[05/20 10:{:02d}:00][INFO]"])
def test_a_bracketed_date_is_no_step(tmp_path, stamp):
    lines = [stamp.format(0) + " misc:  120: Mem: 0.09 MB", stamp.format(1) + " train_net:  302: Start epoch: 1"]
    lines += [
        stamp.format(k) + f" logging:   96: json_stats: {{\"epoch\": \"1/90\", \"iter\": \"{k * 10}/5000\", "
        f"\"loss\": {6.2 - k / 10:.4f}}}"
        for k in (2, 3, 4)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [20, 30, 40]
    assert not {2025, 5} & set(log.metrics.column("step").to_pylist())
    assert "train_net" not in set(log.metrics.column("name").to_pylist())
