"""A record a column logging handler (Rich's ``RichHandler``) wrapped at its message column is read as one record
(issue 25): the time printed only when it changes, the level padded to its width, the values on the lines
under the record's head, indented exactly to where its message began. Own-written logs through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log
from assay.operators.logs._column_wraps import join_message_column

_PAD = " " * 20  # where a repeated time is left blank


def _wrapped_log() -> list[str]:
    lines = []
    for step in (100, 200, 300):
        time = f"[12/07/24 10:{step // 100:02d}:00]"
        lines += [
            f"{time} INFO     trainer - INFO: [step {step} / train]:",
            f"{_PAD}         loss = {3.0 - step / 1000:.3f} | lr = 0.0003 | grad_norm = 1.{step // 100}",
            f"{_PAD} INFO     trainer - INFO:",
            f"{_PAD}         /opt/venv/lib/python3.11/site-packages/trainer/hooks.py:97",
            f"{_PAD}         after_train_step",
        ]
    return lines


def test_values_wrapped_under_a_records_head_are_that_records(tmp_path):
    log = parse_log(write_log(tmp_path, _wrapped_log()))
    assert log.series("loss") == [(100, 2.9), (200, 2.8), (300, 2.7)]
    assert [s for s, _ in log.series("grad_norm")] == [100, 200, 300]


def test_the_join_keeps_every_line_where_it_was():
    data = ("\n".join(_wrapped_log()) + "\n").encode()
    joined = join_message_column(data)
    assert len(joined) == len(data) and joined.count(b"\n") == data.count(b"\n")
    first = joined.split(b"\n")[0]
    assert b"[step 100 / train]:" in first and b"loss = 2.900" in first
    assert joined.split(b"\n")[1] == b""


def test_lines_indented_otherwise_stay_lines_of_their_own():
    # a level at the line's start (its message column too near) and an indented block of another width
    data = b"INFO step 1 loss 2.0\n    continued? no\nINFO step 2 loss 1.9\n  trace line\n"
    assert join_message_column(data) == data
