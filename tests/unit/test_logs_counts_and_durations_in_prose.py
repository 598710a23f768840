"""Numbers in a record's prose (issue 25): a count after a preposition is no value even where its noun ends the
sentence (``83.57 seconds for 100 batches.``: no series named ``for``), a duration whose unit is spelled out
after it and no key before it is named by the unit (``seconds``), and the shell's ``Killed`` pasted in bold
(``**Killed**``) ends the run. Own-written logs in those shapes, read through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _lines() -> list[str]:
    return [
        f"{s} {2.7 - k / 50:.2f} {47 + k / 10:.2f} seconds for 100 batches. Memory used: 18.2 / 16.49 GB."
        for k, s in enumerate(range(1000, 1500, 100))
    ]


def test_a_count_ending_its_sentence_is_no_value_and_a_spelled_duration_is_named(tmp_path):
    log = parse_log(write_log(tmp_path, _lines()))
    names = {row["name"] for row in log.metrics.to_pylist()}
    assert "for" not in names
    assert [s for s, _ in log.series("seconds")] == [1000, 1100, 1200, 1300, 1400]


def test_killed_in_bold_is_a_failure(tmp_path):
    log = parse_log(write_log(tmp_path, [*_lines(), "", "**Killed**"]))
    assert "failure" in log.event_kinds()
    assert log.run["status"] == "failed"


def test_a_value_stated_with_is_after_qualifiers_is_named_by_its_subject(tmp_path):
    # the qualifiers hold numbers of their own (a range of minibatches), so the name stands before them
    lines = [
        f"LOG (train:PrintStats():training.cc:121) Average objective function for 'output' for minibatches "
        f"{k}0-{k}9 is {-40 + k:.4f} over 19538 frames."
        for k in range(4, 9)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(49, -36.0), (59, -35.0), (69, -34.0), (79, -33.0), (89, -32.0)]
