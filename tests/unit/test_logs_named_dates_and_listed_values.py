"""A date written with the day's and the month's names (``Tue 05 Mar 2024 07:08:09``) is a line's prefix, not
two series; a key's value printed as a list (``train_batch_size = [2048]``) is no step. Through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _lines(stamp: str = "Tue 05 Mar 2024 07:08:{s:02d}") -> list[str]:
    lines = [
        f"{stamp.format(s=0)} INFO  [Training]: train_batch_size = [2048] negative_sampling: [{{}}]",
        f"{stamp.format(s=1)} INFO  [Evaluation]: eval_batch_size = [4096] eval_args: [{{}}]",
    ]
    for epoch in range(4):
        lines.append(f"{stamp.format(s=10 + epoch)} INFO  epoch {epoch} training [time: 3.4{epoch}s, "
                     f"train loss: {340 - 10 * epoch:.4f}]")
        lines.append(f"{stamp.format(s=10 + epoch)} INFO  epoch {epoch} evaluating [time: 0.06s, "
                     f"valid_score: 0.0{epoch + 1}]")
    return lines


def test_a_date_with_day_and_month_names_is_no_series(tmp_path):
    log = parse_log(write_log(tmp_path, _lines()))
    names = set(log.metrics.column("name").to_pylist())
    assert not {"tue", "mar"} & names


def test_a_key_s_value_printed_as_a_list_is_no_step(tmp_path):
    log = parse_log(write_log(tmp_path, _lines()))
    assert [s for s, _ in log.series("loss")] == [0, 1, 2, 3]


def test_the_c_library_s_date_is_a_prefix_too(tmp_path):
    log = parse_log(write_log(tmp_path, _lines("Tue Mar  5 07:08:{s:02d} 2024")))
    assert not {"tue", "mar"} & set(log.metrics.column("name").to_pylist())
    assert [s for s, _ in log.series("loss")] == [0, 1, 2, 3]
