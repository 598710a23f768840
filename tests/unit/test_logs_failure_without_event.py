"""A run whose status is ``failed`` gets a ``failure`` event even where no line was worded as one (a Slurm step
cancelled after the cgroup's OOM kills): one, at the line that decided the status. A clean, a cancelled or an
unknown run gets none, nor does a failure already reported."""

from __future__ import annotations

from log_files import write_log

from assay.operators.logs import parse_log


def _log(tmp_path, lines, **kw):
    return parse_log(write_log(tmp_path, lines, "job.log"), **kw)


_OOM_KILLED = [
    "slurmstepd-node07: error: Detected 2 oom-kill event(s) in StepId=5512.0. Some of your processes may have been "
    "killed by the cgroup out-of-memory handler.",
    "srun: error: node07: task 3: Out Of Memory",
    "slurmstepd-node07: error: *** STEP 5512.0 ON node07 CANCELLED AT 2023-08-09T10:11:12 ***",
    "slurmstepd-node07: error: Detected 1 oom-kill event(s) in StepId=5512.batch. Some of your processes may have "
    "been killed by the cgroup out-of-memory handler.",
]


def test_a_step_cancelled_after_oom_kills_is_a_failure(tmp_path):
    log = _log(tmp_path, _OOM_KILLED)
    assert log.run["status"] == "failed"
    assert log.event_kinds().count("failure") == 1
    assert "oom" in log.event_kinds()
    failure = next(e for e in log.events if e["kind"] == "failure")
    assert failure["line_no"] == 4 and failure["step"] is None


#: A step cancelled, then the task's OOM kill reported: the OOM that nothing trained after decides.
_CANCELLED_THEN_OOM = [
    "slurmstepd-node07: error: *** STEP 5512.0 ON node07 CANCELLED AT 2023-08-09T10:11:12 ***",
    "srun: error: node07: task 3: Out Of Memory",
]


def test_after_training_the_failure_is_at_the_last_step(tmp_path):
    lines = [f"step {s} loss {2 - s / 100:.2f}" for s in (10, 20, 30)] + _CANCELLED_THEN_OOM
    log = _log(tmp_path, lines)
    assert [e["step"] for e in log.events if e["kind"] == "failure"] == [30]


def test_a_chunked_file_gets_it_once(tmp_path):
    lines = [f"step {s} loss {2 - s / 10000:.4f} lr 0.001 throughput 1234.5" for s in range(1, 4000)]
    lines += _CANCELLED_THEN_OOM
    log = _log(tmp_path, lines, chunk_mb=0.05)
    assert len(log.records) > 1
    assert log.run["status"] == "failed"
    assert log.event_kinds().count("failure") == 1


def test_a_clean_run_gets_none(tmp_path):
    lines = [f"step {s} loss {2 - s / 100:.2f}" for s in (10, 20, 30)] + ["Training completed."]
    log = _log(tmp_path, lines)
    assert log.run["status"] == "completed"
    assert "failure" not in log.event_kinds()


def test_a_cut_log_and_a_time_limit_get_none(tmp_path):
    cut = _log(tmp_path, [f"step {s} loss {2 - s / 100:.2f}" for s in (10, 20, 30)])
    assert cut.run["status"] == "unknown" and "failure" not in cut.event_kinds()
    limit = _log(tmp_path, [
        "step 10 loss 1.9",
        "slurmstepd: error: *** JOB 77 ON node01 CANCELLED AT 2023-08-09T10:11:12 DUE TO TIME LIMIT ***",
    ])
    assert limit.run["status"] != "failed" and "failure" not in limit.event_kinds()


def test_a_reported_failure_is_not_repeated(tmp_path):
    lines = [
        "step 10 loss 1.9",
        "Traceback (most recent call last):",
        '  File "train.py", line 9, in <module>',
        "RuntimeError: something broke",
    ]
    log = _log(tmp_path, lines)
    assert log.run["status"] == "failed"
    assert log.event_kinds().count("failure") == 1
