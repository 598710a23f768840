"""A time a record prints is each step's time where it wanders around its mean, and the run's time so far where it
rises on every record to twice its first value or more (``elapsed 12.4s``, ``time 3m 40s`` then ``6m 21s``,
``total used time 7.2 (s)``): that clock is ``elapsed_s`` in seconds, never a step time the cost model would fit.
Through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_a_time_that_rises_every_record_is_the_runs_clock(tmp_path):
    lines = [f"iter {100 * k} | loss {2.5 - k / 10:.2f} | elapsed {12.4 * k:.1f}s" for k in range(1, 6)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("step_time_ms") == []
    assert log.series("elapsed_s")[:2] == [(100, 12.4), (200, 24.8)]


def test_a_clock_printed_in_parts_is_in_seconds(tmp_path):
    clock = ["52s", "3m 40s", "6m 21s", "9m 03s"]
    lines = [f"tick {k}  kimg {4.0 * k:.1f}  time {c:<10} augment {k / 40:.3f}" for k, c in enumerate(clock)]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("elapsed_s") == [(0, 52.0), (1, 220.0), (2, 381.0), (3, 543.0)]


def test_a_step_time_that_wanders_stays_a_step_time(tmp_path):
    times = [412, 398, 405, 401, 420]
    lines = [f"iter {100 * k} | loss {2.5 - k / 10:.2f} | time {t}ms" for k, t in enumerate(times, start=1)]
    log = parse_log(write_log(tmp_path, lines))
    assert [v for _, v in log.series("step_time_ms")] == [412.0, 398.0, 405.0, 401.0, 420.0]
    assert log.series("elapsed_s") == []
