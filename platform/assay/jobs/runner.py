"""Running jobs: submit to the queue, run one in the foreground, resume an orphan, steer a running one.

Steering works through the database, so it reaches a job whichever process runs it: ``request_resize`` and
``request_cancel`` add an ``allocations`` row with ``source = 'user'``; the process running the job (this
module's :func:`run` loop, or the live scheduler) applies it and answers with an allocation of its own.
A job that nobody runs (queued, preempted, or whose driver died) is changed directly.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assay.clock import utc_now
from assay.domain.job import Job
from assay.domain.job_spec import JobSpec, SpecError
from assay.ids import stable_id
from assay.jobs._record import DB_LOCK, db_call, owner_alive, owner_id
from assay.store import default_db_path, write_rows
from assay.store import queries_jobs as q
from assay.store.job_state import (
    ACTIVE_STATES,
    FINAL_STATES,
    WAITING_STATES,
    JobState,
    job_from_row,
    job_to_row,
)

log = logging.getLogger(__name__)

PathLike = str | os.PathLike[str] | None


def jobs_dir(db: PathLike = None) -> Path:
    """Where jobs keep checkpoints and logs: ``ASSAY_JOBS_DIR``, else ``assay-jobs/`` beside the database."""
    env = os.environ.get("ASSAY_JOBS_DIR")
    if env:
        return Path(env)
    path = Path(db) if db is not None else default_db_path()
    return path.resolve().parent / "assay-jobs"


def new_job(spec: JobSpec, state: JobState | str = JobState.QUEUED) -> Job:
    """A fresh job of ``spec``; its id is ``<name>-<8 hex>``."""
    at = utc_now()
    job_id = f"{spec.name}-{stable_id(spec.to_json(), at.isoformat(), os.getpid(), time.perf_counter_ns())[:8]}"
    return Job.submitted(spec, job_id, at, JobState(state))


def submit(spec: JobSpec, db: PathLike = None, *, capacity: Any = None) -> str:
    """Queue ``spec`` for the scheduler; returns the job id. A job that can never run on ``capacity`` (an
    :class:`assay.jobs.Capacity`, or a number of worker slots; default: the connected Ray cluster, else this
    machine's CPUs) is refused with :class:`SpecError` naming the field and the fix, and nothing is queued."""
    return _admit_and_queue(spec, db, _capacity(capacity))[0]


def _capacity(capacity: Any) -> Any:
    from assay.jobs._admission import Capacity
    from assay.jobs._admission import capacity as detect

    if capacity is None:
        return detect()
    return Capacity(capacity, f"{capacity} given") if isinstance(capacity, int) else capacity


def _admit_and_queue(spec: JobSpec, db: PathLike, capacity: Any) -> tuple[str, str]:
    """(job id, on how many workers it will run) of ``spec`` queued; :class:`SpecError` if it can never run."""
    from assay.jobs._admission import admit

    note = admit(spec, capacity)
    job = new_job(spec)
    db_call(write_rows, db, {"jobs": [job_to_row(job)]}, upsert=["jobs"])
    return job.job_id, note


@dataclass(frozen=True)
class Submission:
    """One spec of a batch handed to :func:`submit_all`: queued (``job_id``, and on how many workers it will
    run: ``note``) or refused (``error``, naming the field and the fix)."""

    label: str
    job_id: str | None = None
    note: str = ""
    error: SpecError | None = None


def submit_all(items: Sequence[JobSpec | SpecError], db: PathLike = None, *, capacity: Any = None
               ) -> list[Submission]:
    """Queue each spec of a file (``load_specs``' items: a spec, or the ``SpecError`` of one that did not
    load) on its own: one refused spec does not keep the others from the queue."""
    capacity = _capacity(capacity)
    out = []
    for i, item in enumerate(items, 1):
        parts = [f"spec {i} of {len(items)}" if len(items) > 1 else "",
                 "" if isinstance(item, SpecError) else f"({item.name})"]
        label = " ".join(p for p in parts if p)
        try:
            if isinstance(item, SpecError):
                raise item
            out.append(Submission(label, *_admit_and_queue(item, db, capacity)))
        except SpecError as exc:
            out.append(Submission(label, error=exc))
    return out


def get_job(db: PathLike, job_id: str) -> dict[str, Any]:
    """The row of the job called ``job_id`` (or a unique prefix of it), for reading (``load_job`` gives the
    :class:`Job` to change); ``KeyError`` with a hint otherwise."""
    matches = db_call(q.find_jobs, db, job_id)
    if len(matches) != 1:
        hint = "no such job" if not matches else f"ambiguous: {', '.join(matches[:5])}"
        raise KeyError(f"{job_id}: {hint}")
    return db_call(q.job, db, matches[0])


def load_job(db: PathLike, job_id: str) -> Job:
    """The :class:`Job` called ``job_id`` (or a unique prefix of it); ``KeyError`` with a hint otherwise."""
    return job_from_row(get_job(db, job_id))


def is_orphan(job: Job, stale_s: float = 60.0) -> bool:
    """A job in an active state whose driver is gone."""
    return job.state in (*ACTIVE_STATES, JobState.WAITING) and not owner_alive(job.owner, job.heartbeat_at, stale_s)


def request_cancel(db: PathLike, job_id: str, reason: str = "cancelled by user") -> str:
    """Cancel a job: at once if nobody runs it, else through its driver. Returns the resulting state."""
    job = load_job(db, job_id)
    if job.state in FINAL_STATES:
        return job.state
    with DB_LOCK:
        if job.state in WAITING_STATES or is_orphan(job):
            job.finish(JobState.CANCELLED, utc_now(), reason)
            write_rows(db, {"jobs": [job_to_row(job)], "allocations": [_request_row(job.job_id, 0, "cancel", reason)]},
                       upsert=["jobs"])
            return JobState.CANCELLED
        write_rows(db, {"allocations": [_request_row(job.job_id, 0, "cancel", reason)]})
    return "cancelling"


def request_resize(db: PathLike, job_id: str, workers: int, reason: str = "requested by user") -> str:
    """Ask for ``workers`` workers for a job. A waiting job takes it as its new size; a running one is resized
    by its driver at the next step boundary. Returns the job's state."""
    job = load_job(db, job_id)
    spec = job.spec_of()
    if workers < 1:
        raise ValueError("workers must be at least 1")
    if job.state in FINAL_STATES:
        raise ValueError(f"job {job.job_id} is {job.state}")
    if spec.max_workers and workers > spec.max_workers:
        raise ValueError(f"job {job.job_id} allows at most max_workers={spec.max_workers} workers")
    if workers < spec.min_workers:
        raise ValueError(f"job {job.job_id} needs at least min_workers={spec.min_workers} workers")
    db_call(write_rows, db, {"allocations": [_request_row(job.job_id, workers, "resize", reason)]})
    return job.state


def _request_row(job_id: str, workers: int, request: str, reason: str) -> dict[str, Any]:
    return {"job_id": job_id, "at": utc_now(), "workers": workers, "plan": json.dumps({"request": request}),
            "reason": reason, "source": "user"}


def wait(db: PathLike, job_id: str, timeout_s: float | None = None, poll_s: float = 1.0) -> str:
    """Block until the job is completed, failed or cancelled; returns that state (or the current one on
    timeout)."""
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    while True:
        state = get_job(db, job_id)["state"]
        if state in FINAL_STATES or (deadline is not None and time.monotonic() > deadline):
            return state
        time.sleep(poll_s)


class RequestPoller:
    """Applies users' resize and cancel requests to the supervisors a driver runs."""

    def __init__(self, db: PathLike):
        self.db = db
        self.seen: set[tuple[str, Any]] = set()

    def poll(self, supervisors: dict[str, Any]) -> list[dict[str, Any]]:
        """Pending requests for the given supervisors, each returned (and applied) once; newest wins."""
        try:
            pending = db_call(q.user_requests, self.db, list(supervisors))
        except Exception as exc:  # a busy database delays requests, it does not stop the jobs
            log.warning("reading requests: %s", exc)
            return []
        fresh, done_jobs = [], set()
        for req in pending:  # newest first per job
            key = (req["job_id"], req["at"])
            if key in self.seen or req["job_id"] in done_jobs:
                self.seen.add(key)
                continue
            self.seen.add(key)
            done_jobs.add(req["job_id"])
            fresh.append(req)
        return fresh


def run(spec: JobSpec, db: PathLike = None, *, address: str | None = None, workers: int | None = None,
        worker_cpus: float | None = None, on_progress: Callable[..., None] | None = None,
        on_event: Callable[..., None] | None = None, job: Job | None = None, poll_s: float = 1.0,
        hang_timeout_s: float = 120.0) -> Any:
    """Run a job in this process until it ends (``job`` resumes an existing row); returns its supervisor.
    A job that can never run on the connected cluster (as ``submit`` checks it, plus a ``workers`` start size
    it cannot hold) is refused with :class:`SpecError` before any row is written.

    Ctrl-C preempts the job (checkpointed, resumable with :func:`resume`)."""
    from assay.jobs._admission import admit_run, run_capacity
    from assay.jobs._gang import WorkerShape
    from assay.jobs._supervisor import JobSupervisor
    from assay.ray_session import ensure_ray

    ensure_ray(address, log_to_driver=False)
    admit_run(spec, run_capacity(spec, workers, worker_cpus), workers)  # refuse now, not hang in placement
    if job is None:
        job = new_job(spec, state=JobState.STARTING)
    job.owner = owner_id()
    shape = WorkerShape(cpus=worker_cpus) if worker_cpus else None
    sup = JobSupervisor(db, job, jobs_dir(db), workers=workers, shape=shape, source="runner",
                        on_progress=on_progress, on_event=on_event, hang_timeout_s=hang_timeout_s)
    poller = RequestPoller(db)
    sup.start()
    try:
        while not sup.join(poll_s):
            for req in poller.poll({sup.job_id: sup}):
                apply_request(sup, req)
    except KeyboardInterrupt:
        sup.stop("preempt", "interrupted (Ctrl-C); resume with: assay jobs resume " + sup.job_id)
        sup.join(60)
        raise
    return sup


def apply_request(sup: Any, req: dict[str, Any]) -> None:
    if req["request"] == "cancel":
        sup.stop("cancel", req.get("reason") or "cancelled by user")
    else:
        sup.resize(int(req["workers"]), req.get("reason") or "requested by user")


def resume(job_id: str, db: PathLike = None, **kwargs: Any) -> Any:
    """Run an interrupted job (preempted, or orphaned by a dead driver) from its newest checkpoint."""
    job = load_job(db, job_id)
    if job.state in FINAL_STATES:
        raise ValueError(f"job {job.job_id} is already {job.state}")
    if job.state in ACTIVE_STATES and not is_orphan(job):
        raise ValueError(f"job {job.job_id} is being run by {job.owner}")
    return run(job.spec_of(), db, job=job, **kwargs)
