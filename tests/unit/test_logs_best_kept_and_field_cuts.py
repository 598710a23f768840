"""A booster's rounds that keep their best evaluation value (``learn: 0.91  test: 0.80  best: 0.83 (4)``) say
which way the metric goes: a best at or above every evaluation value is a score that rises, so neither split's
value is a loss; a best at or below them leaves the losses as they are. The round after ``best`` in parentheses
is where the best was, no running average. A last line cut where the records go on with their next key
(``... best: 0.83 (4)`` before ``total: 12s``) is still a record. Durations whose unit changes from record to
record (``48.3ms``, then ``1.0s``; ``1m 4s``) are read in seconds. Own-written logs, through ``parse_log``."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _rounds(score: bool, cut: bool = False) -> list[str]:
    lines = []
    best, at = (0.0, 0) if score else (9.0, 0)
    for r in range(20, 30):
        test = 0.80 + (r % 3) / 100 if score else 0.40 - (r % 3) / 100
        if (score and test > best) or (not score and test < best) or r == 20:
            best, at = (0.84, 3) if score and r == 20 else (test, r)
        lines.append(f"{r}:\tlearn: {0.9 + r / 1000:.7f}\ttest: {test:.7f}\tbest: {best:.7f} ({at})\ttotal: {r / 2:.1f}s\tremaining: 3m {r}s")
    if cut:
        lines.append(f"30:\tlearn: 0.9300000\ttest: 0.8100000\tbest: {best:.7f} ({at})")
    return lines


def test_a_best_above_every_evaluation_value_marks_a_score(tmp_path):
    log = parse_log(write_log(tmp_path, _rounds(score=True)))
    assert log.series("loss") == [] and log.series("val_loss") == []
    assert log.series("val_score")[-1] == (29, 0.82)


def test_a_best_below_the_evaluation_values_keeps_the_losses(tmp_path):
    log = parse_log(write_log(tmp_path, _rounds(score=False)))
    assert log.series("loss")[-1] == (29, 0.929)
    assert log.series("val_loss")[-1] == (29, 0.38)


def test_the_round_of_the_best_is_no_running_average(tmp_path):
    log = parse_log(write_log(tmp_path, _rounds(score=False)))
    assert not [n for n in set(log.metrics.column("name").to_pylist()) if n.endswith("_avg")]


def test_a_line_cut_before_the_next_key_is_a_record(tmp_path):
    log = parse_log(write_log(tmp_path, _rounds(score=True, cut=True)))
    steps = sorted({s for s in log.metrics.column("step").to_pylist() if s is not None})
    assert steps == list(range(20, 31))


def test_durations_whose_unit_changes_are_read_in_seconds(tmp_path):
    lines = ["0:\tlearn: 0.9412345\ttest: 0.9512345\tbest: 0.9512345 (0)\ttotal: 48.3ms\tremaining: 1m 4s"]
    lines += [f"{r}:\tlearn: 0.{80 - r // 10}12345\ttest: 0.{85 - r // 10}12345\tbest: 0.{85 - r // 10}12345 ({r})"
              f"\ttotal: {r / 50:.1f}s\tremaining: {30 - r / 10:.1f}s" for r in (50, 100, 150)]
    log = parse_log(write_log(tmp_path, lines))
    assert [(s, round(v, 6)) for s, v in log.series("total")] == [(0, 0.0483), (50, 1.0), (100, 2.0), (150, 3.0)]
    assert log.series("remaining")[0] == (0, 64.0)
