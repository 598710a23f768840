"""The live scheduler's acting step without a cluster: what it starts, resizes and preempts from a round's
decisions, and the brakes that keep it from thrashing."""

from __future__ import annotations

import time

import pytest

from assay.domain import Job
from assay.jobs.runner import new_job
from assay.jobs.spec import load_spec
from assay.live.scheduler import LiveScheduler, _cap
from assay.scheduler.policies import Decision


class FakeSupervisor:
    def __init__(self, workers: int):
        self.allocated = workers
        self.done = False
        self.outcome = None
        self.calls: list[tuple] = []

    def resize(self, workers, reason, source="runner"):
        self.calls.append(("resize", workers, reason, source))

    def stop(self, kind, reason, source="runner"):
        self.calls.append((kind, reason, source))


@pytest.fixture
def sched(tmp_path, monkeypatch):
    s = LiveScheduler(tmp_path / "db.duckdb", "fifo", slots=4, min_change_s=10.0, min_run_s=60.0)
    s.started = []
    monkeypatch.setattr(s, "_start", lambda row, workers, reason: s.started.append((row.job_id, workers)))
    monkeypatch.setattr(s, "_record_wait", lambda job_id, reason: None)
    return s


def _row(name: str, priority: int = 0, *overrides: str) -> Job:
    return new_job(load_spec("tiny", [f"name={name}", f"priority={priority}", *overrides]))


def _running(sched, row, workers: int, changed_ago: float) -> FakeSupervisor:
    sup = FakeSupervisor(workers)
    sched.sups[row.job_id] = sup
    t = sched._track(row)
    t.changed_at = time.monotonic() - changed_ago
    return sup


def test_starts_what_fits_and_rounds_to_a_runnable_size(sched):
    a, b = _row("a"), _row("b")
    sched._apply([a, b], {a.job_id: Decision(3, "p: 3"), b.job_id: Decision(1, "p: 1")}, total=4)
    # tiny (batch 8, 2 layers, 4 heads) has no layout of 3 workers: 2 it is
    assert sorted(sched.started) == sorted([(a.job_id, 2), (b.job_id, 1)])


def test_growth_waits_for_free_workers(sched):
    a, b = _row("a"), _row("b")
    _running(sched, a, 2, changed_ago=100)
    _running(sched, b, 2, changed_ago=100)
    c = _row("c")
    sched._apply([a, b, c], {a.job_id: Decision(2, "keep"), b.job_id: Decision(2, "keep"),
                             c.job_id: Decision(1, "start")}, total=4)
    assert sched.started == []  # no free worker for c this round


def test_shrinks_free_workers_for_starts_in_the_same_round(sched):
    a, b = _row("a"), _row("b")
    sup_a = _running(sched, a, 4, changed_ago=100)
    sched._apply([a, b], {a.job_id: Decision(2, "share"), b.job_id: Decision(2, "share")}, total=4)
    assert sup_a.calls == [("resize", 2, "share", "scheduler")]
    assert sched.started == [(b.job_id, 2)]


def test_a_job_changes_at_most_once_per_min_change(sched):
    a = _row("a")
    sup = _running(sched, a, 1, changed_ago=1.0)
    sched._apply([a], {a.job_id: Decision(2, "grow")}, total=4)
    assert sup.calls == []
    sched.tracked[a.job_id].changed_at -= 20
    sched._apply([a], {a.job_id: Decision(2, "grow")}, total=4)
    assert sup.calls == [("resize", 2, "grow", "scheduler")]


def test_equal_priority_preemption_waits_for_min_run_but_higher_priority_does_not(sched):
    low = _row("low", 0)
    sup = _running(sched, low, 4, changed_ago=20.0)  # past min_change, not past min_run
    peer = _row("peer", 0)
    sched._apply([low, peer], {low.job_id: Decision(0, "time slice"), peer.job_id: Decision(4, "go")},
                 total=4)
    assert sup.calls == [] and sched.started == []

    urgent = _row("urgent", 5)
    sched._apply([low, urgent], {low.job_id: Decision(0, "preempted for urgent"),
                                 urgent.job_id: Decision(4, "urgent")}, total=4)
    assert sup.calls == [("preempt", "preempted for urgent", "scheduler")]
    assert sched.started == [(urgent.job_id, 4)]


def test_slots_are_capped_by_what_the_nodes_hold():
    assert _cap([4, 2], 3) == [3, 0]
    assert _cap([2, 2], 8) == [2, 2]
