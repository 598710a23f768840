"""A metric's key and value inside parentheses or brackets (``(loss: 0.73)``, ``[lr: 0.1]``) are a pair, not a
tag such as ``(trainer:672)``; read through the whole ``parse_log`` path."""

from __future__ import annotations

import pytest
from log_files import write_log

from assay.operators.logs import parse_log


@pytest.mark.parametrize(
    "shape",
    ["batch {i} (loss: {v})", "update {i} [loss: {v}]", "iter {i} (loss: {v}) grad_norm: 1.5"],
)
def test_a_bracketed_loss_is_read(tmp_path, shape):
    lines = [shape.format(i=i, v=round(1.2 - i / 50, 3)) for i in (11, 12, 13)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(11, 0.98), (12, 0.96), (13, 0.94)]


def test_a_module_tag_in_parentheses_stays_no_value(tmp_path):
    lines = [f"(runner:417) step {i} loss {1.0 - i / 100:.2f}" for i in (3, 4, 5)]
    names = set(parse_log(write_log(tmp_path, lines)).metrics.column("name").to_pylist())
    assert "runner" not in names and "loss" in names, names
