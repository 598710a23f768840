"""Issue 13, item 5: a job that finishes while the live scheduler is in the middle of a round must not be
started ("resumed") again at its final step.

The interleaving is forced, not waited for: a real ``JobSupervisor`` whose thread is scripted with events
finishes exactly at the chosen point of the round (after the queue was read, before or after the policy
decided), and stays alive a moment longer, as a real one does while it tears its workers down."""

from __future__ import annotations

import threading
import time

import pytest

from assay.clock import utc_now
from assay.jobs._record import db_call
from assay.jobs._supervisor import JobSupervisor
from assay.jobs.runner import new_job
from assay.jobs.spec import load_spec
from assay.live.scheduler import LiveScheduler
from assay.store import queries_jobs as q
from assay.store import write_rows
from assay.store.job_state import job_to_row


class ScriptedSupervisor(JobSupervisor):
    """A real supervisor (its ``done``, ``allocated`` and recorder are the real ones) whose thread, instead of
    training, waits for ``finish``, then ends the job as ``_finish`` does (row written, then ``outcome``),
    and keeps its thread alive until ``release``."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.finish, self.finished, self.release = threading.Event(), threading.Event(), threading.Event()

    def _main(self) -> None:
        self.finish.wait(10)
        self.step = self.spec.steps
        self.job.finish("completed", utc_now())
        self.recorder.flush(force=True)
        self.outcome = "completed"
        self.finished.set()
        self.release.wait(10)

    def finish_now(self) -> None:
        self.finish.set()
        assert self.finished.wait(10)


@pytest.fixture
def setup(tmp_path):
    db = tmp_path / "race.duckdb"
    sched = LiveScheduler(db, "fifo", slots=2, min_change_s=0.0, min_run_s=0.0, jobs_root=tmp_path / "jobs")
    sched._capacity = lambda foreign: (2,)  # no Ray: a cluster of two worker slots
    sched.started = []
    sched._start = lambda row, workers, reason: sched.started.append((row.job_id, workers, reason))
    job = new_job(load_spec("tiny", ["name=last-step", "max_workers=1", "steps=200"]), state="running")
    job.owner, job.started_at, job.workers = sched.owner, utc_now(), 1
    db_call(write_rows, db, {"jobs": [job_to_row(job)]}, upsert=["jobs"])
    sup = ScriptedSupervisor(db, job, sched.jobs_root, workers=1, source="scheduler").start()
    sched.sups[job.job_id] = sup
    sched._track(job).changed_at = time.monotonic() - 100
    yield sched, sup, job.job_id
    sup.finish.set()
    sup.release.set()
    sup.join(10)


def _finish_at(sched, sup, point: str) -> None:
    """Make ``sup`` finish at ``point`` of the next round: just after the queue was read (the row still says
    running), after the policy's views were built (the view says running), or after the policy decided."""
    if point == "queue-read":
        apply_requests = sched._apply_requests

        def hooked_requests(candidates):
            sup.finish_now()
            return apply_requests(candidates)

        sched._apply_requests = hooked_requests
        return
    decide = sched.policy.decide

    def hooked_decide(views, cluster, at):
        if point == "views-built":
            sup.finish_now()
        out = decide(views, cluster, at)
        if point == "decided":
            sup.finish_now()
        return out

    sched.policy.decide = hooked_decide


@pytest.mark.parametrize("point", ["queue-read", "views-built", "decided"])
def test_a_job_finishing_during_a_round_is_not_started_again(setup, point):
    sched, sup, job_id = setup
    _finish_at(sched, sup, point)
    sched.round()
    assert sup.finished.is_set() and not sup.done  # the interleaving happened: ended, thread still alive
    assert sched.started == [], "the finished job was started again in the round it finished"

    info = sched.round()  # a whole round with the job ended and its thread still winding down
    assert info["ended"] == [(job_id, "completed")] and job_id in sched.sups
    assert sched.started == []

    sup.release.set()  # the supervisor's thread ends; the next round forgets it and reads the job as completed
    assert sup.join(10)
    info = sched.round()
    assert info["ended"] == [] and job_id not in sched.sups and sched.started == []
    assert db_call(q.job, sched.db, job_id)["state"] == "completed"
