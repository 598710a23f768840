"""The states of a parallel-training job (``jobs.state``): one list, read by the jobs, the live scheduler,
the store's queries and the dashboards alike.

A ``StrEnum``, so the values stored in the database and printed by the CLI are the plain strings they
always were (``JobState.RUNNING == "running"``).
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
