"""A file that is a table of numbers (a loop's ``results.txt``: a row per epoch, no header; a loss history with a
``#`` header): every row a record at its step, a headerless column kept as ``column_<k>`` rather than lost, a
header's keys naming theirs. A log with prose lines is no such file. Through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_a_headerless_results_table_is_a_record_per_row(tmp_path):
    rows = [
        f"{k:>6}/49    6.10G   {0.09 - k / 1000:.5f}   {0.04 - k / 2000:.5f}       41      640   {0.1 + k / 100:.4f}"
        for k in range(5)
    ]
    log = parse_log(write_log(tmp_path, rows, "results.txt"))
    assert sorted({r["step"] for r in log.metrics.to_pylist()}) == [0, 1, 2, 3, 4]
    assert [v for _, v in log.series("column_3")] == [0.09, 0.089, 0.088, 0.087, 0.086]
    assert log.series("column_7")[-1] == (4, 0.14)


def test_a_commented_header_names_the_columns(tmp_path):
    rows = ["# step loss_train loss_test"] + [f"{1000 * k} {1 / (k + 1):.3e} {1.2 / (k + 1):.3e}" for k in range(4)]
    log = parse_log(write_log(tmp_path, rows, "loss.dat"))
    assert [s for s, _ in log.series("loss")] == [0, 1000, 2000, 3000]
    assert {r["name"] for r in log.metrics.to_pylist()} == {"loss", "val_loss"}  # a held-out split's loss


def test_a_log_with_prose_is_no_number_table(tmp_path):
    rows = ["starting the run", *[f"{k} {2.0 - k / 10:.2f} {0.001:.3f}" for k in range(1, 5)]]
    log = parse_log(write_log(tmp_path, rows))
    assert "column_2" not in {r["name"] for r in log.metrics.to_pylist()}
