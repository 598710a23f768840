"""A step word cut short and marked so by a full stop (``Up. 4000``, ``It. 200``) is the step, also over two
records only; a bare short word is no step key. Through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log
from assay.operators.logs._names import is_step_key


def test_updates_cut_short_number_the_records(tmp_path):
    lines = [
        f"[2031-01-01 10:0{k}:00] Ep. 12 : Up. {4000 + 500 * k} : Sen. {1024 * (k + 1):,} : Cost {2.41 - k / 25:.2f} :"
        f" Time 12.{k}s : 7100 words/s"
        for k in (0, 1)
    ]
    log = parse_log(write_log(tmp_path, lines))
    assert log.series("loss") == [(4000, 2.41), (4500, 2.37)]
    assert "up" not in {r["name"] for r in log.metrics.to_pylist()}


def test_iterations_cut_short_number_the_records(tmp_path):
    lines = [f"It. {100 * k} | lr 1e-4 | loss {1.0 - k / 10:.2f}" for k in (1, 2, 3)]
    assert [s for s, _ in parse_log(write_log(tmp_path, lines)).series("loss")] == [100, 200, 300]


def test_only_the_stop_makes_a_short_word_a_step_key():
    assert is_step_key("Up.") and is_step_key("It.") and not is_step_key("up") and not is_step_key("Sen.")
