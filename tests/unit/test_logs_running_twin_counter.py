"""A step key whose values go back (the updates since the last report) beside a key of the same word with a
qualifier whose values only rise (the updates of the whole run): the running one is the step. Read from the
two counters' behaviour, through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_the_counter_of_the_whole_run_is_the_step(tmp_path):
    reports = ((40, 120, 0.91), (25, 145, 0.52), (60, 205, 0.33))
    lines = [
        f"[ time:{k}.0s seen:{k * 500} ] {{'exs': 900, 'loss': {loss}, 'updates': {since}, 'lr': 0.007, "
        f"'run_updates_total': 0, 'all_updates': {total}}}"
        for k, (since, total, loss) in enumerate(reports, start=1)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(120, 0.91), (145, 0.52), (205, 0.33)]


def test_a_step_key_that_only_rises_stays_the_step(tmp_path):
    lines = [f"{{'updates': {n}, 'loss': 0.{n}, 'total_updates': {n * 10}}}" for n in (1, 2, 3)]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [1, 2, 3]
