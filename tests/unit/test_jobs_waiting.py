"""Issue 13, item 4 in the live scheduler: a job that cannot start is reported as waiting with why (in
``allocations.reason``, ``jobs.state`` and the round's lines), and never blocks the jobs behind it that can
run, under fifo too (backfill). Whole rounds on a real DuckDB file; no Ray: two or three worker slots and
supervisors that only hold their workers."""

from __future__ import annotations

from dataclasses import replace

import pytest

from assay.clock import utc_now
from assay.jobs._record import db_call
from assay.jobs.runner import new_job, request_cancel
from assay.jobs.spec import load_spec
from assay.live.scheduler import LiveScheduler, explain_wait
from assay.scheduler.policies import ClusterView, JobView, get_policy
from assay.store import queries_jobs as q
from assay.store import write_rows
from assay.store.job_state import job_to_row


class HoldingSupervisor:
    """Holds its workers until told the job ended."""

    def __init__(self, workers: int):
        self.allocated = self.workers = workers
        self.outcome = None
        self.done = False
        self.gang = self.placement = None
        self.recent_step_ms: list[float] = []

    def restart_costs(self) -> list[float]:
        return []

    def end(self, outcome: str = "completed") -> None:
        self.outcome, self.done, self.allocated = outcome, True, 0


def _scheduler(tmp_path, policy: str, slots: int, **kwargs) -> LiveScheduler:
    sched = LiveScheduler(tmp_path / "wait.duckdb", policy, slots=slots, min_change_s=0.0, min_run_s=0.0,
                          jobs_root=tmp_path / "jobs", **kwargs)
    sched._capacity = lambda foreign: (slots - foreign,)

    def start(job, workers, reason):  # a supervisor that holds its workers; the row says so, as a real one's
        sched.sups[job.job_id] = HoldingSupervisor(workers)
        job = replace(job)  # its own copy, as a real supervisor's
        job.start(sched.owner, utc_now())
        job.run(workers, None)
        db_call(write_rows, sched.db, {"jobs": [job_to_row(job)]}, upsert=["jobs"])

    sched._start = start
    return sched


def _queue(sched, name: str, *overrides: str) -> str:
    """A queued job row as a scheduler finds it (written directly: admission is tested elsewhere, and a job
    admitted for a bigger cluster may meet a smaller one)."""
    job = new_job(load_spec("tiny", [f"name={name}", *overrides]))
    db_call(write_rows, sched.db, {"jobs": [job_to_row(job)]}, upsert=["jobs"])
    return job.job_id


def _end(sched, job_id: str) -> None:
    """The job finishes as a real supervisor ends it: its row says so, then its supervisor is done."""
    row = db_call(q.job, sched.db, job_id)
    db_call(write_rows, sched.db, {"jobs": [{**row, "state": "completed", "workers": 0}]}, upsert=["jobs"])
    sched.sups[job_id].end()


def _waits(sched, job_id: str) -> list[str]:
    allocs = db_call(q.allocations, sched.db, job_id)
    return allocs[allocs.reason.str.startswith("wait:")].reason.tolist()


def test_a_job_that_can_never_fit_waits_with_why_and_the_next_job_runs(tmp_path):
    sched = _scheduler(tmp_path, "fifo", slots=2)
    big = _queue(sched, "big", "parallel=auto", "min_workers=32", "max_workers=32")
    small = _queue(sched, "small", "max_workers=1")
    info = sched.round()
    assert small in sched.sups and big not in sched.sups  # submitted first, but it does not block
    assert any(line.startswith(f"start {small} on 1 worker") for line in info["applied"])
    (why,) = _waits(sched, big)
    assert why.startswith("wait: needs 32 workers, the cluster has 2: cannot start until it grows")
    assert any(line.startswith(f"wait {big}: needs 32 workers") for line in info["applied"])
    assert db_call(q.job, sched.db, big)["state"] == "waiting"
    assert why.removeprefix("wait: ").startswith(info["waiting"][big])

    info = sched.round()  # the same decision again is not recorded or printed again
    assert _waits(sched, big) == [why] and info["applied"] == [] and not info["idle"]
    _end(sched, small)
    assert sched.round()["idle"]  # nothing runs; what is left can never start here
    assert request_cancel(sched.db, big) == "cancelled"  # nobody runs a waiting job: cancelled at once


def test_a_waiting_job_says_who_holds_the_workers_and_fifo_backfills_behind_it(tmp_path):
    sched = _scheduler(tmp_path, "fifo", slots=3)
    hog = _queue(sched, "hog", "dp=2", "min_workers=2", "max_workers=2")
    sched.round()
    assert sched.sups[hog].allocated == 2
    head = _queue(sched, "head", "dp=2", "min_workers=2", "max_workers=2")
    tail = _queue(sched, "tail", "max_workers=1")
    info = sched.round()
    assert head not in sched.sups and tail in sched.sups  # backfilled into the free slot, under fifo
    (why,) = _waits(sched, head)
    # after the tail took the free slot: the accounting as it stands once the round has acted
    assert why.startswith(f"wait: needs 2 workers, 0 free; 2 held by {hog}, 1 held by {tail}")
    assert db_call(q.job, sched.db, head)["state"] == "waiting"

    _end(sched, hog)  # the hog finishes: the head starts on the workers it left
    info = sched.round()
    assert head in sched.sups and sched.sups[head].allocated == 2
    assert any(line.startswith(f"start {head} on 2 workers") for line in info["applied"])


def test_without_backfill_fifo_would_have_blocked_the_tail(tmp_path):
    """The same queue under a fifo told not to backfill: the reason names the blocker (the behaviour the
    live scheduler no longer has by default)."""
    sched = _scheduler(tmp_path, "fifo", slots=3, knobs={"backfill": False})
    hog = _queue(sched, "hog", "dp=2", "min_workers=2", "max_workers=2")
    sched.round()
    head = _queue(sched, "head", "dp=2", "min_workers=2", "max_workers=2")
    tail = _queue(sched, "tail", "max_workers=1")
    sched.round()
    assert tail not in sched.sups
    assert f"queued behind {head}" in _waits(sched, tail)[0] and hog in _waits(sched, tail)[0]


@pytest.mark.parametrize("policy", ["fifo", "tiresias"])
def test_policies_give_a_never_fitting_job_nothing_and_run_the_next(policy):
    jobs = [JobView("big", 0.0, requested_workers=32, min_workers=32, max_workers=32),
            JobView("small", 1.0, requested_workers=2, min_workers=1, max_workers=2)]
    out = get_policy(policy).decide(jobs, ClusterView(capacity=(2,)), 10.0)
    assert out["big"].workers == 0 and "cannot start until it grows" in out["big"].reason
    assert out["small"].workers == 2


def test_explain_wait_names_free_workers_and_holders():
    assert explain_wait(4, 4, 2, {"job-x": 2}, 0) == "needs 4 workers, 2 free; 2 held by job-x"
    assert explain_wait(2, 4, 0, {"a": 3}, 1) == "needs 2 workers, 0 free; 3 held by a, 1 by jobs of other drivers"
    assert explain_wait(8, 4, 4, {}, 0) == "needs 8 workers, the cluster has 4: cannot start until it grows"
