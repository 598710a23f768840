"""Logs round 13: class-level readings found on a newly opened set, each rule on a log written here in its shape
(own-worded tool output) and read through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _steps(log, name: str) -> list[int | None]:
    return [s for s, _ in log.series(name)]


def _row(step: int, loss: str) -> str:
    return f"{step} | loss {loss} | lr 3.125000e-04 | 517.08ms | mfu 12.40%"


def test_a_bare_number_opening_a_row_of_keyed_fields_is_its_step(tmp_path):
    # ``N | loss X | lr Y | ...``: the only unnamed field, set apart by its separator, counts the rows, from the
    # first row on; ``loss nan`` is still the row's loss, and its nan event is at that step
    log = parse_log(write_log(tmp_path, [_row(7300, "3.4417"), _row(7310, "nan")], "pico.log"))
    assert _steps(log, "loss") == [7300, 7310]
    assert [(e["kind"], e["step"]) for e in log.events] == [("nan", 7310)]


def test_a_single_keyed_row_takes_its_leading_number_as_its_step(tmp_path):
    log = parse_log(write_log(tmp_path, [_row(52000, "2.0713")], "pico.log"))
    assert log.series("loss") == [(52000, 2.0713)]


def test_a_leading_number_before_an_unnamed_whole_number_is_no_step_of_one_row(tmp_path):
    # a second unnamed whole number on the row: which one counts is not said, so one row keeps no step
    log = parse_log(write_log(tmp_path, ["52000 | 17 | loss 2.0713 | lr 3.1e-04"], "pico.log"))
    assert _steps(log, "loss") == [None]


def test_training_rows_beside_a_framework_parsers_evaluation_lines_are_read(tmp_path):
    # the evaluation line is nanoGPT's; the training rows are the script's own: a parser that found only
    # evaluation values leaves the other lines to the general reader, and keeps its reading of its own lines
    lines = [
        "step 7300: train loss 3.4521, val loss 3.5160",
        _row(7300, "3.4417"),
        _row(7310, "3.4380"),
        _row(7320, "nan"),
    ]
    log = parse_log(write_log(tmp_path, lines, "pico.log"))
    assert log.series("loss")[:2] == [(7300, 3.4417), (7310, 3.438)]
    assert _steps(log, "loss") == [7300, 7310, 7320]
    assert log.series("val_loss") == [(7300, 3.516)]
    assert log.series("eval_train_loss") == [(7300, 3.4521)]
    assert [(e["kind"], e["step"]) for e in log.events] == [("nan", 7320)]
