"""The states of a parallel-training job (``jobs.state``) and the moves between them: one list, read by the
jobs, the live scheduler, the store's queries and the dashboards alike.

A ``StrEnum``, so the values stored in the database and printed by the CLI are the plain strings they
always were (``JobState.RUNNING == "running"``). :data:`MOVES` is the job's life as data: a move it does not
list is a bug in the caller, refused by :func:`check_move` with :class:`IllegalMove` before anything is
written.
"""

from __future__ import annotations

from enum import StrEnum


class JobState(StrEnum):
    QUEUED = "queued"
    WAITING = "waiting"
    STARTING = "starting"
    RUNNING = "running"
    RESTARTING = "restarting"
    RESIZING = "resizing"
    PREEMPTED = "preempted"
    COMPLETED = "completed"
    FAILED = "failed"
    CANCELLED = "cancelled"


#: A driver runs the job.
ACTIVE_STATES: tuple[JobState, ...] = (JobState.STARTING, JobState.RUNNING, JobState.RESTARTING,
                                        JobState.RESIZING)
#: Nobody runs the job; the scheduler will start it. ``waiting`` is in neither group because it is both: a
#: job the live scheduler decided cannot start yet (no owner; ``allocations.reason`` says why), or one
#: whose driver waits for the cluster to place its workers (owner set).
WAITING_STATES: tuple[JobState, ...] = (JobState.QUEUED, JobState.PREEMPTED)
#: The job will not run again.
FINAL_STATES: tuple[JobState, ...] = (JobState.COMPLETED, JobState.FAILED, JobState.CANCELLED)
#: Every state, in the order a job passes through them (the order listings sort by).
ALL_STATES: tuple[JobState, ...] = tuple(JobState)

_S = JobState
#: Where a driver may take a job it runs (or adopts: a driver that died leaves its job in any of these):
#: between the active states and ``waiting`` (for workers), to ``preempted``, or to an end.
_DRIVEN = frozenset({_S.STARTING, _S.WAITING, _S.RUNNING, _S.RESTARTING, _S.RESIZING, _S.PREEMPTED,
                     *FINAL_STATES})
#: state -> the states a job in it may move to. A job nobody has started (queued, preempted, or waiting
#: without a driver) is started, kept waiting, cancelled, or failed before it ran (an unreadable
#: checkpoint); a final state is left never; nothing goes back to ``queued``.
MOVES: dict[JobState, frozenset[JobState]] = {
    _S.QUEUED: frozenset({_S.STARTING, _S.WAITING, _S.CANCELLED, _S.FAILED}),
    _S.PREEMPTED: frozenset({_S.STARTING, _S.WAITING, _S.CANCELLED, _S.FAILED}),
    _S.WAITING: _DRIVEN,
    _S.STARTING: _DRIVEN,
    _S.RUNNING: _DRIVEN,
    _S.RESTARTING: _DRIVEN,
    _S.RESIZING: _DRIVEN,
    _S.COMPLETED: frozenset(),
    _S.FAILED: frozenset(),
    _S.CANCELLED: frozenset(),
}


class IllegalMove(ValueError):
    """A job asked to move between two states its life does not connect (a bug in the caller, not a user's
    mistake: nothing is written)."""


def check_move(old: str, new: str, job_id: str = "job") -> JobState:
    """``new`` as a :class:`JobState` if a job in ``old`` may move there (staying in a state it may leave is
    always allowed: a running job's every chunk says ``running``); :class:`IllegalMove` otherwise."""
    old_s, new_s = JobState(old), JobState(new)
    if new_s in MOVES[old_s] or (old_s == new_s and MOVES[old_s]):
        return new_s
    if not MOVES[old_s]:
        raise IllegalMove(f"{job_id} is {old_s}, a final state: it cannot become {new_s}")
    allowed = ", ".join(s for s in JobState if s in MOVES[old_s])
    raise IllegalMove(f"{job_id} cannot move from {old_s} to {new_s} (from {old_s}: {allowed})")
