"""A batch scheduler that kills a run at its time limit (PBS's walltime, LSF's run limit, Grid Engine's wall
clock) took the machines back: a ``preempted`` event at the last step, through the whole ``parse_log`` path."""

from __future__ import annotations

import pytest
from log_files import write_log

from assay.operators.logs import parse_log


@pytest.mark.parametrize(
    "kill",
    [
        "=>> PBS: job killed: walltime 172830 exceeded limit 172800",
        "TERM_RUNLIMIT: job killed after reaching LSF run time limit.",
        "error: job 5512 exceeded hard wallclock time - initiate terminate method",
    ],
)
def test_a_time_limit_kill_is_a_preemption_at_the_last_step(tmp_path, kill):
    lines = [f"Train: 3 [{i:>4}/1000]  Loss:  {2.5 - i / 1000:.4f}  LR: 1.0e-04" for i in (100, 200, 300)]
    log = parse_log(write_log(tmp_path, [*lines, kill]))
    last_step = log.series("loss")[-1][0]
    assert [(e["kind"], e["step"]) for e in log.events if e["kind"] == "preempted"] == [("preempted", last_step)]


def test_a_time_limit_named_in_a_setting_is_no_event(tmp_path):
    lines = ["walltime limit requested: 48:00:00", "step 10 loss 2.0", "step 20 loss 1.9"]
    log = parse_log(write_log(tmp_path, lines))
    assert not log.events
