"""A logger's name closing a bracketed record header after its date and time (``[04/14 20:50:27
reidkit.utils.events]:``) refers to the tool's package as the name alone in brackets does, so the run is named
after it; a bracket of words without a dotted name names nothing. Through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_a_dotted_name_closing_a_bracketed_header_names_the_tool(tmp_path):
    lines = [
        f"[04/14 20:5{k}:27 reidkit.utils.events]:  eta: 1:10:0{k}  iter: {100 * k}  total_loss: 2.{k}  lr: 3.50e-04"
        for k in range(1, 4)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.run["framework"] == "reidkit"


def test_a_bracket_of_plain_words_names_nothing(tmp_path):
    lines = [f"[04/14 20:5{k}:27 main loop]:  iter: {100 * k}  total_loss: 2.{k}" for k in range(1, 4)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.run["framework"] is None
