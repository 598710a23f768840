"""A record printed over two lines, each with a counter of its own (``Training Step: 9 | total loss: 1.9``,
then ``| Opt | epoch: 001 | loss: 1.9 -- iter: 00576/55000``): the second line's counter moves in lockstep
with the first's, by a whole multiple (it counts samples), so the second line is at the first line's step.
Read from the two counters' behaviour, through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _records(steps, batch: int = 32) -> list[str]:
    lines = []
    for step in steps:
        loss = f"{3 - step / 10:.5f}"
        lines.append(f"Training Step: {step}  | total loss: {loss} | time: 0.2{step}s")
        tail = f" | val_loss: 1.{step} - val_acc: 0.5{step}" if step % 4 == 0 else ""
        lines.append(f"| SGD | epoch: 002 | loss: {loss} - acc: 0.{step}{tail} -- iter: {step * batch:05d}/60000")
    return lines


def test_the_second_line_is_at_the_first_lines_step(tmp_path):
    log = parse_log(write_log(tmp_path, _records(range(5, 11))))
    assert sorted(set(log.metrics.column("step").to_pylist())) == [5, 6, 7, 8, 9, 10]
    assert log.series("val_loss") == [(8, 1.8)]


def test_a_second_counter_not_in_lockstep_keeps_its_own_steps(tmp_path):
    lines = []
    for k, (step, it) in enumerate(((5, 100), (6, 130), (7, 190), (8, 200))):
        lines.append(f"Training Step: {step}  | total loss: 2.{k} | time: 0.2s")
        lines.append(f"| SGD | epoch: 001 | loss: 2.{k} -- iter: {it:05d}/60000")
    log = parse_log(write_log(tmp_path, lines))
    assert 190 in set(log.metrics.column("step").to_pylist())
