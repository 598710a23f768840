"""Three shapes of real logs (issue 25), in own-worded lines through ``parse_log``:

- a record written as sentences whose loss is NaN from the first line on (``Loss is NaN. Current learning rate
  is 0.009``): a non-finite value after a metric's name is that metric's value, so the lines are records of a
  run that diverged, not prose;
- the last line of an excerpt cut inside its last value (``loss 0`` after records that print ``loss 0.16778``):
  the whole number is what the cut left of a decimal, so the value is not read;
- a progress line's count of iterations with its unit and total (``586it/2.06kit``) is the step.

And a JVM tool's log4j header (``INFO  Optimizer$:88 - ``) is peeled, so the class and its line are no metric."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from log_files import write_log

from assay.operators.logs import parse_log


def _sentences(loss: str, i: int) -> str:
    return (
        f"2021-03-02 10:00:0{i} INFO  Optimizer$:88 - [Epoch 3 {2048 + 512 * i}/50000][Iteration {120 + i}] "
        f"Trained 512 records in 0.8{i} seconds. Throughput is 63{i}.1 records/second. Loss is {loss} "
        f"Current learning rate is 0.00{9 - i}"
    )


@pytest.mark.parametrize("nan", ["NaN.", "nan.", "NaN,", "inf."])
def test_sentence_records_whose_loss_is_never_finite(tmp_path: Path, nan: str) -> None:
    log = parse_log(write_log(tmp_path, [_sentences(nan, i) for i in range(4)]))
    loss = log.series("loss")
    assert [s for s, _ in loss] == [120, 121, 122, 123]
    assert all(not math.isfinite(v) for _, v in loss)
    assert [s for s, _ in log.series("lr")] == [120, 121, 122, 123]
    assert log.run["status"] == "diverged"


def test_sentence_records_keep_their_finite_losses_and_no_header_metric(tmp_path: Path) -> None:
    log = parse_log(write_log(tmp_path, [_sentences(f"{2.3 - 0.1 * i:.3f}", i) for i in range(4)]))
    assert log.series("loss") == [(120, 2.3), (121, 2.2), (122, 2.1), (123, 2.0)]
    assert "log4j" in (log.records[0]["line_prefix"] or "").split("+")
    assert not log.series("optimizer")  # the logger's class and line (``Optimizer$:88``)


def test_a_last_line_cut_to_a_whole_number_reads_no_value(tmp_path: Path) -> None:
    values = ["0.96994", "0.4443", "0.36194", "0.30613", "0.26075", "0"]
    lines = [f"Worker 1 job_id 5306 epoch {i} loss {v}" for i, v in enumerate(values)]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [0, 1, 2, 3, 4]
    # the same value inside the file is a value (only the end can be cut)
    log = parse_log(write_log(tmp_path, [*lines, "Worker 1 job_id 5306 epoch 6 loss 0.1921"], "more.log"))
    assert [s for s, _ in log.series("loss")] == [0, 1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("count", [1, 4])
def test_a_progress_line_counts_its_iterations(tmp_path: Path, count: int) -> None:
    """tqdm's count with its unit and total (``586it/2.06kit``) is the step, even on a log of one such line."""
    lines = [
        f"Progress on:train {586 + 10 * i}it/2.06kit rate:5.5s/it remaining:2:16:02 elapsed:55:45 loss={2.45 - 0.01 * i:.2f}"
        for i in range(count)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [586 + 10 * i for i in range(count)]
