"""A training job as job control carries it through its life: the fields of its ``jobs`` row, typed, and
its state transitions as methods.

Each transition checks the move against the job's life (:data:`assay.domain.job_state.MOVES`) and refuses an
illegal one with :class:`~assay.domain.job_state.IllegalMove` before changing anything, so a job cannot, say,
leave ``completed`` or run without having been started. The store converts a job to and from its row in
one place (``assay.store.job_state``: ``job_to_row``, ``job_from_row``).

    job = Job.submitted(spec, "tiny-1a2b3c4d", utc_now())
    job.start("host:123", utc_now())        # queued -> starting
    job.run(2, plan_json)                   # starting -> running on 2 workers
    job.finish(JobState.COMPLETED, utc_now())
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import datetime

from assay.domain.job_spec import JobSpec, from_json
from assay.domain.job_state import FINAL_STATES, IllegalMove, JobState, check_move

__all__ = ["COLUMNS", "Job"]


@dataclass
class Job:
    """One job: its id, the spec it was submitted with (as stored: JSON), its state and the counts and times
    the driver keeps. Mutable through its transitions (one driver thread changes it; the recorder writes
    snapshots of it)."""

    job_id: str
    name: str
    spec: str  # the JobSpec as JSON, exactly as stored; spec_of() reads it
    state: JobState
    priority: int = 0
    min_workers: int | None = None
    max_workers: int | None = None
    workers: int = 0
    attempts: int = 0
    submitted_at: datetime | None = None
    started_at: datetime | None = None
    finished_at: datetime | None = None
    plan: str | None = None  # the current placement, JSON
    error: str | None = None
    owner: str | None = None  # the driver process running it, host:pid
    heartbeat_at: datetime | None = None
    #: The GPU type (node pool) its workers are bound to, recorded with its allocations; not a column.
    gpu_type: str | None = field(default=None, compare=False)

    @classmethod
    def submitted(cls, spec: JobSpec, job_id: str, at: datetime, state: JobState = JobState.QUEUED) -> Job:
        """A fresh job of ``spec`` (``queued``, or ``starting`` for one run at once)."""
        workers = spec.requested_workers
        return cls(job_id=job_id, name=spec.name, spec=spec.to_json(), state=JobState(state),
                   priority=spec.priority, min_workers=spec.min_workers,
                   max_workers=spec.max_workers or workers, submitted_at=at)

    def spec_of(self) -> JobSpec:
        """The validated spec it was submitted with."""
        return from_json(self.spec)

    @property
    def resumed(self) -> bool:
        """Whether it ran before (a start is then a resume from its checkpoint)."""
        return self.started_at is not None

    # -- transitions ------------------------------------------------------------------------------------
    def move(self, state: JobState | str) -> None:
        """The checked move every transition makes; :class:`IllegalMove` if ``state`` is not reachable."""
        self.state = check_move(self.state, state, self.job_id)

    def start(self, owner: str, at: datetime) -> None:
        """A driver (``owner``) takes it up: ``starting``, its last error cleared, ``started_at`` set once."""
        self.move(JobState.STARTING)
        self.owner, self.error = owner, None
        if self.started_at is None:
            self.started_at = at

    def wait(self) -> None:
        """Its driver waits for the cluster to place its workers."""
        self.move(JobState.WAITING)

    def run(self, workers: int | None = None, plan: str | None = None) -> None:
        """Training: on ``workers`` workers placed as ``plan`` after a (re)start, or still, after a chunk."""
        self.move(JobState.RUNNING)
        if workers is not None:
            self.workers, self.plan = workers, plan

    def count_failure(self) -> int:
        """One more failed attempt (a worker died or hung); returns how many it has had."""
        if self.state in FINAL_STATES:
            raise IllegalMove(f"{self.job_id} is {self.state}: it has no attempts left to fail")
        self.attempts += 1
        return self.attempts

    def restart(self) -> None:
        """Back to its newest checkpoint after a failure."""
        self.move(JobState.RESTARTING)

    def resize(self) -> None:
        """Restarting on another number of workers, or another pool's."""
        self.move(JobState.RESIZING)

    def preempt(self) -> None:
        """Checkpointed and off its workers; back to the scheduler, which owns it no longer."""
        self.move(JobState.PREEMPTED)
        self.workers, self.owner = 0, None

    def finish(self, state: JobState | str, at: datetime, error: str | None = None) -> None:
        """Ended: ``completed``, ``failed`` (``error`` says why) or ``cancelled`` (``error``: the reason)."""
        if JobState(state) not in FINAL_STATES:
            raise IllegalMove(f"{self.job_id}: {state} is not an end (one of {', '.join(FINAL_STATES)})")
        self.move(state)
        self.finished_at, self.error, self.workers = at, error or None, 0

    def beat(self, at: datetime) -> None:
        """Its driver is alive (the row's heartbeat, written with every flush)."""
        self.heartbeat_at = at


#: The columns of the ``jobs`` table, in its order: the fields of :class:`Job` that are stored.
COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(Job) if f.name != "gpu_type")
