"""Which counter is the step, decided by the role its values play across the file's records (issue 25): a
counter that advances by one per record over one that advances by a batch's worth of samples, an unnamed
``(N/M)`` position that every line of a record repeats, an epoch's bar that a console wrapped. Each log is
written here in its shape and read through the whole ``parse_log`` path."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _two_line_record(step: int, loss: float, seen: int, val: str = "") -> list[str]:
    return [
        f"Fit Step: {step}  | summed loss: {loss:.5f} | took: 0.201s",
        f"| SGD | round: 002 | loss: {loss:.5f} - prec: 0.5{step:02d}{val} -- iter: {seen:05d}/48000",
    ]


def test_a_record_printed_again_keeps_the_per_record_counter_as_the_step(tmp_path):
    # a two-line record (step line, then a line counting samples in lockstep, 32 per step), some printed
    # twice; the sample counter must still not become the step
    # (steps 4 and 6 twice: the report repeated, then the run going on from step 4 again)
    lines = []
    for step in (3, 4, 4, 5, 6, 4, 5, 6):
        lines += _two_line_record(step, 2.0 - step / 10, step * 32, " | val_loss: 1.10000" if step == 5 else "")
    log = parse_log(write_log(tmp_path, lines))
    # each second line is at its first line's step, not at its count of samples
    assert [s for s, _ in log.series("loss")] == [3, 4, 4, 5, 6, 4, 5, 6]
    assert log.series("loss")[-1] == (6, 1.4)
    assert log.series("val_loss")[-1][0] == 5


def test_a_position_with_its_total_that_every_metric_line_repeats_is_the_step(tmp_path):
    # one line per metric, each opening with the same unnamed (N/M) position, then a timing line
    lines = ["Loaded 52000 pairs."]
    for at in (500, 1000, 1500):
        lines += [
            f"[node 0][Fit]({at}/20000) mean pos_score: {0.9 - at / 5000:.4f}",
            f"[node 0][Fit]({at}/20000) mean loss: {1.2 - at / 4000:.4f}",
            f"[node 0][Fit] 500 steps took {9 + at / 1000:.2f} seconds",
        ]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [500, 1000, 1500]
    assert log.series("loss")[-1] == (1500, 0.825)


def test_a_bracketed_part_out_of_parts_that_does_not_rise_is_no_step(tmp_path):
    lines = [f"[shard](2/4) loss: {1.5 - i / 10:.2f}" for i in range(4)]
    log = parse_log(write_log(tmp_path, lines))
    assert [s for s, _ in log.series("loss")] == [None] * 4
