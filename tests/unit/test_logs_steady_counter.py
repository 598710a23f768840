"""A named whole number that rises by one constant stride on every record is the step of a template that names
no step word (issue 25: a line's position is never a step, but a loop's own counter is): ``tick 0, 1, 2``,
``Up. 14000, 16000``. An amount it has processed (samples, images, time) rises unevenly and a metric the
synonym table knows is a value; neither becomes the step. Each log is written here in the shapes such loops
print, through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def test_a_tick_rising_by_one_is_the_step(tmp_path):
    lines = [
        f"tick {t:<5d} kimg {t * 4.0 + 0.3 * t * t:<8.1f} loss {1.9 - t / 20:.3f} sec/tick {60 + t:.1f}"
        for t in range(5)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [0, 1, 2, 3, 4]


def test_updates_logged_every_two_thousand_are_the_step(tmp_path):
    lines = [
        f"Up. {u} | loss {3 - u / 100000:.4f} | acc {0.3 + u / 1e6:.3f}" for u in range(14000, 24000, 2000)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss")[-1] == (22000, 2.78)


def test_a_count_of_samples_or_a_constant_is_no_step(tmp_path):
    lines = [f"phase 2 | samples {1000 * (i + 1) * (i + 1)} | loss {2 - i / 10:.2f}" for i in range(4)]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [None] * 4
    assert log.series("loss")[-1][1] == 1.7
