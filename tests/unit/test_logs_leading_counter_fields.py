"""A whole number that opens every record and rises from record to record is the step, whatever separates it
from the fields (``490 | loss 5.75 | lr ...``, ``490, loss 5.75, ...``); a number followed by a word it counts
(``4 GPUs available``) is not. Read from behaviour across the template's records, through ``parse_log``."""

from __future__ import annotations

import pytest
from log_files import write_log

from assay.operators.logs import parse_log


@pytest.mark.parametrize(
    "shape",
    ["{n} | loss {v} | lr 4.900000e-05 | 8060.78ms | mfu 0.21%", "{n}, loss {v}, lr 4.9e-05", "{n} loss: {v} lr: 0.1"],
)
def test_a_rising_leading_number_is_the_step(tmp_path, shape):
    lines = [shape.format(n=n, v=f"5.{k}") for k, n in enumerate((490, 500, 510, 520))]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [490, 500, 510, 520]


def test_a_count_of_things_is_no_step(tmp_path):
    lines = [f"{n} GPUs available, loss: 0.{n}" for n in (2, 4, 8)]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] != [2, 4, 8]
