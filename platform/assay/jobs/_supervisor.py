"""The supervisor of one job: carries it (a :class:`~assay.domain.job.Job`, moved only by its transitions)
through its life (start, resizes, failures, preemption, its end) and answers the driver's requests. It owns
a :class:`~assay.jobs._training.GangDriver`, which talks to the workers (placing, starting, training in
chunks, exporting shards) and answers with return values or a ``WorkerFailure``; the supervisor records what
happened (metrics, checkpoints, events, allocations) and decides what comes next.

It runs in a thread of the driver process (``assay jobs run`` or ``assay scheduler``), which is the only
process that writes the job's rows. The job's progress lives in two durable places: its checkpoints
(files) and its rows (database). After any interruption (a killed worker, a lost node, a killed driver)
the job resumes from its newest checkpoint, deleting the metrics of the steps after it, which run again:
the metric series holds every step exactly once.

Why one module: the job's life is one state machine (a request, a failure or a checkpoint changes the step,
the gang and the state together), and splitting its transitions across modules would split that machine.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assay.clock import utc_now
from assay.domain.job import Job
from assay.ids import stable_id
from assay.jobs._gang import Gang, WorkerShape, default_shape
from assay.jobs._layout import Placement, feasible_workers
from assay.jobs._record import Recorder, owner_id, run_row
from assay.jobs._training import GangDriver, WorkerFailure, merge_metrics
from assay.jobs.spec import JobSpec
from assay.store.job_state import FINAL_STATES, JobState
from assay.training import checkpoint as ckpt

log = logging.getLogger(__name__)

#: Seconds between heartbeats of a job's row.
HEARTBEAT_S = 5.0

__all__ = ["HEARTBEAT_S", "JobSupervisor", "WorkerFailure", "run_id_of"]


class _Stop(Exception):
    """The job leaves this supervisor (finished, preempted, cancelled or failed)."""


@dataclass
class _Request:
    kind: str  # "resize", "move", "preempt", "cancel"
    workers: int = 0
    reason: str = ""
    source: str = "runner"
    shape: WorkerShape | None = None  # a move's worker shape, bound to the new pool


def run_id_of(job_id: str) -> str:
    return stable_id("job-run", job_id)


class JobSupervisor:
    """Runs one job. Start it with :meth:`start`; steer it with :meth:`resize` and :meth:`stop`.

    ``workers`` is how many workers the job should have (its spec's layout size when None); on a
    shortage it runs on what the cluster can place, never fewer than ``min_workers``."""

    def __init__(self, db: Any, job: Job, jobs_dir: Path, *, workers: int | None = None,
                 shape: WorkerShape | None = None, source: str = "runner", start_reason: str = "started",
                 pg_timeout_s: float = 15.0,
                 hang_timeout_s: float = 120.0, on_progress: Callable[[JobSupervisor, int, dict], None] | None = None,
                 on_event: Callable[[JobSupervisor, str, int, str], None] | None = None):
        self.spec: JobSpec = job.spec_of()
        self.job = job
        self.job_id = job.job_id
        self.db = db
        self.dir = Path(jobs_dir) / self.job_id
        self.ckpt_dir = self.dir / "checkpoints"
        self.run_id = run_id_of(self.job_id)
        self.recorder = Recorder(db, job, self.run_id, self.dir / "train.log")
        self.target = workers or self.spec.requested_workers
        self.shape = shape
        #: The GPU type (node pool) its workers are bound to, recorded with each allocation.
        job.gpu_type = shape.gpu_type if shape is not None else None
        self.source = source
        self.hang_timeout_s = hang_timeout_s
        #: The gang of workers and the calls that drive it.
        self.driver = GangDriver(self.spec, self.job_id, self.ckpt_dir, pg_timeout_s=pg_timeout_s,
                                 hang_timeout_s=hang_timeout_s)
        self.on_progress = on_progress
        self.on_event = on_event
        self.step = 0
        self.ckpt_step = 0
        self.placement: Placement | None = None
        self.last_metrics: dict[str, float] = {}
        #: Step times at the current placement, the first step after a launch (warm-up) left out.
        self.recent_step_ms: deque[float] = deque(maxlen=32)
        self.timeline: list[tuple[str, float, int]] = []  # (what, time.time(), step), for benchmarks/tests
        self.outcome: JobState | None = None
        self._requests: list[_Request] = []
        self._lock = threading.Lock()
        self._pending_change: tuple[str, str, Placement | None] | None = ("start", start_reason, None)
        self.thread = threading.Thread(target=self._main, name=f"assay-job-{self.job_id}", daemon=True)

    def _shape(self) -> WorkerShape:
        """The worker shape: the one given (the scheduler's, bound to the pool it chose), else the default
        shape, which on a cluster of several GPU types is bound to the pool holding the most such workers,
        so a job nobody placed (``assay jobs run``) runs on one type too."""
        if self.shape is None:
            from assay.jobs._gang import live_node_resources
            from assay.jobs._pools import on_largest_pool

            self.shape = on_largest_pool(default_shape(self.target, self.spec.device), live_node_resources())
            self.job.gpu_type = self.shape.gpu_type
        return self.shape

    @property
    def gang(self) -> Gang | None:
        """The job's running gang of workers (None between gangs)."""
        return self.driver.gang

    # -- control (any thread) ------------------------------------------------------------------------
    def start(self) -> JobSupervisor:
        self.thread.start()
        return self

    def join(self, timeout: float | None = None) -> bool:
        self.thread.join(timeout)
        return not self.thread.is_alive()

    @property
    def done(self) -> bool:
        return self.outcome is not None and not self.thread.is_alive()

    @property
    def workers(self) -> int:
        return self.placement.workers if (self.placement and self.gang) else 0

    @property
    def allocated(self) -> int:
        """Workers the job holds or is about to hold: its gang's slots, or its target while it launches."""
        if self.outcome is not None:
            return 0
        return len(self.gang.workers) if self.gang is not None else self.target

    @property
    def gpu_type(self) -> str | None:
        """The GPU type of the node pool its workers are bound to (None: any node)."""
        return self.shape.gpu_type if self.shape is not None else None

    @property
    def state(self) -> str:
        return str(self.job.state)

    def resize(self, workers: int, reason: str, source: str = "runner") -> None:
        """Move the job to ``workers`` workers at its next step boundary (checkpoint, re-plan, restart)."""
        with self._lock:
            self._requests = [r for r in self._requests if r.kind != "resize"]
            self._requests.append(_Request("resize", workers, reason, source))

    def move(self, shape: WorkerShape, workers: int, reason: str, source: str = "runner") -> None:
        """Move the job to ``workers`` workers of ``shape`` (bound to another GPU type's pool) at its next
        step boundary: checkpoint, stop the gang, start a new one in the new pool from the checkpoint."""
        with self._lock:
            self._requests = [r for r in self._requests if r.kind not in ("resize", "move")]
            self._requests.append(_Request("move", workers, reason, source, shape))

    def stop(self, kind: str, reason: str, source: str = "runner") -> None:
        """``preempt`` (checkpoint, free the workers, back to the queue) or ``cancel`` the job."""
        if kind not in ("preempt", "cancel"):
            raise ValueError(f"unknown stop kind {kind!r}")
        with self._lock:
            self._requests.append(_Request(kind, 0, reason, source))

    # -- the job's life ---------------------------------------------------------------------------------
    def restart_costs(self) -> list[float]:
        """Seconds from each (re)start's cause (start, resize, failure) to its first step: what a change of
        allocation has cost this job."""
        out, cause = [], None
        for what, at, _ in self.timeline:
            if what in ("start", "resize_requested", "move_requested", "failure", "preempt_requested"):
                cause = at
            elif what == "first_step" and cause is not None:
                out.append(at - cause)
                cause = None
        return out

    def _heartbeat(self, stop: threading.Event) -> None:
        """Keep the job's row fresh while the supervisor waits (for workers, for a slow start), so no
        other driver mistakes the job for an orphan."""
        while not stop.wait(HEARTBEAT_S):
            try:
                self.recorder.flush()
            except Exception as exc:  # a heartbeat never takes the job down
                log.debug("heartbeat of %s: %s", self.job_id, exc)

    def _main(self) -> None:
        self.timeline.append(("start", time.time(), self.step))
        stop = threading.Event()
        beat = threading.Thread(target=self._heartbeat, args=(stop,), daemon=True,
                                name=f"assay-heartbeat-{self.job_id}")
        beat.start()
        try:
            self._run()
        finally:
            stop.set()
            beat.join()

    def _run(self) -> None:
        try:
            self._prepare()
            while self.step < self.spec.steps:
                if self.gang is None:
                    self._launch()
                self._apply_requests()
                if self.gang is not None:
                    self._train_chunk()
            self._finish(JobState.COMPLETED, "")
        except _Stop:
            pass
        except Exception as exc:  # a bug or an unreadable checkpoint: the job fails, the driver lives on
            log.exception("job %s failed", self.job_id)
            if self.job.state in FINAL_STATES:  # it had ended (a later write failed): the end stands
                self.outcome = self.job.state
                return
            try:
                self._finish(JobState.FAILED, f"{type(exc).__name__}: {exc}")
            except _Stop:
                pass
        finally:
            self._teardown()
            if self.outcome is None:
                self.outcome = self.job.state

    def _prepare(self) -> None:
        resumed = self.job.resumed
        self.ckpt_step = self.step = ckpt.latest_step(self.ckpt_dir)
        self.job.start(owner_id(), utc_now())
        if resumed:
            self._rewind(self.step, f"resumed by {owner_id()} from checkpoint at step {self.step}")
            self.recorder.log.note(f"resuming job {self.job_id} at iteration {self.step}")
        else:
            self.recorder.flush(force=True)

    def _launch(self) -> None:
        """Start a gang: the target size when the cluster can place it, else the largest feasible size that
        fits (a lost node shrinks the job), waiting while not even ``min_workers`` fit."""
        waited = False
        while True:
            self._apply_requests()
            if self.gang is not None:
                return
            want = min(self.target, self.spec.max_workers or self.target)
            slots, n = self.driver.reserve(want, 0, self._shape())
            if slots is None:
                if not waited:
                    log.info("job %s: waiting for %d workers", self.job_id, self.spec.min_workers)
                    self._wait_for_workers()
                    waited = True
                time.sleep(1.0)
                continue
            try:
                self._start_gang(Gang(slots), n)
                return
            except WorkerFailure as exc:
                self._failed(exc)

    # -- failures, requests, endings ------------------------------------------------------------------
    def _failed(self, exc: WorkerFailure) -> None:
        self.timeline.append(("failure", time.time(), self.step))
        attempts = self.job.count_failure()
        self._event("failure", self.step, str(exc))
        self._teardown()
        if attempts > self.spec.max_failures:
            self._finish(JobState.FAILED, f"{attempts} failures, more than max_failures={self.spec.max_failures}: {exc}")
        resume_at = ckpt.latest_step(self.ckpt_dir)
        self.ckpt_step = self.step = resume_at
        self.job.restart()
        self._rewind(resume_at, f"restarting from checkpoint at step {resume_at} after "
                             f"failure {attempts} of at most {self.spec.max_failures}")
        self.recorder.log.restarting(resume_at, f"failure {attempts} of at most {self.spec.max_failures}: {exc}")

    def _apply_requests(self) -> None:
        with self._lock:
            requests, self._requests = self._requests, []
        for req in requests:
            if req.kind in ("preempt", "cancel"):
                self._stop(req)
        change = next((r for r in reversed(requests) if r.kind in ("resize", "move")), None)
        if change is not None and change.kind == "move":
            self._move(change)
            return
        resize = change
        if resize is None:
            return
        current = self.workers
        want = max(self.spec.min_workers, min(resize.workers, self.spec.max_workers or resize.workers))
        self.target = want
        if self.gang is None or feasible_workers(self.spec, want) == current:
            if self.gang is not None:  # answered, nothing to change
                self.recorder.allocation(current, self._plan_json(self.placement),
                                         f"resize to {resize.workers} kept {current}: {resize.reason}", resize.source)
            return
        self.timeline.append(("resize_requested", time.time(), self.step))
        self._checkpoint_now()
        self.timeline.append(("checkpointed", time.time(), self.step))
        self._pending_change = ("resize", resize.reason, self.placement)
        self.source = resize.source
        if self.gang is None:  # the checkpoint failed and took the gang down: relaunch at the new size
            return
        # Keep the live workers: shrink drops the last ranks, growth adds slots for the difference.
        have = len(self.gang.workers)
        n = feasible_workers(self.spec, want)
        if n > have:
            extra, n = self.driver.reserve(want, have, self._shape())
            if extra is None:
                self._pending_change = None
                self.recorder.allocation(current, self._plan_json(self.placement),
                                         f"resize to {resize.workers} kept {current}: no room on the cluster "
                                         f"({resize.reason})", resize.source)
                return
            self.gang.workers += extra
        else:
            self.gang.keep(n)
        self.job.resize()
        try:
            self._start_gang(self.gang, n)
        except WorkerFailure as exc:
            self._failed(exc)

    def _move(self, req: _Request) -> None:
        """Checkpoint, stop the whole gang and leave the launch (the main loop's next turn) to place a new
        one of the new shape, in the new pool, from the checkpoint: no worker process can change nodes."""
        old, new = self.gpu_type, req.shape.gpu_type if req.shape is not None else None
        self.target = max(self.spec.min_workers, min(req.workers, self.spec.max_workers or req.workers))
        self.shape = req.shape
        self.job.gpu_type = new
        self.source = req.source
        reason = f"GPU type {old} -> {new}: {req.reason}"
        if self.gang is None:  # not placed yet: the launch places it in the new pool
            self._pending_change = ("move", reason, self.placement)
            return
        self.timeline.append(("move_requested", time.time(), self.step))
        self._checkpoint_now()
        self.timeline.append(("checkpointed", time.time(), self.step))
        self._teardown()
        resume_at = ckpt.latest_step(self.ckpt_dir)
        if resume_at < self.step:  # the checkpoint was skipped (a busy database): the steps after the last
            self.ckpt_step = self.step = resume_at  # one run again, recorded once
            self._rewind(resume_at, f"restarting from checkpoint at step {resume_at} for a move")
        self._event("resize", self.step, f"moved from GPU type {old} to {new} at step {self.step}: {req.reason}")
        self.recorder.log.note(f"job {self.job_id} moves from GPU type {old} to {new} at iteration {self.step}")
        self._pending_change = ("move", reason, self.placement)
        self.job.resize()

    def _stop(self, req: _Request) -> None:
        self._checkpoint_now()
        self._teardown()
        if req.kind == "cancel":
            self.recorder.allocation(0, None, f"cancel: {req.reason}", req.source)
            self._finish(JobState.CANCELLED, req.reason, event="cancelled")
        self._event("preempted", self.step, req.reason)
        self.recorder.log.note(f"job {self.job_id} preempted at iteration {self.step}: {req.reason}")
        self.recorder.allocation(0, None, f"preempt: {req.reason}", req.source)
        self.job.preempt()
        self.recorder.run_row(self._run_row("preempted"))
        self.recorder.flush_final()
        self.outcome = JobState.PREEMPTED
        raise _Stop

    def _finish(self, state: JobState, error: str, event: str | None = None) -> None:
        if state == JobState.COMPLETED and self.gang is not None and self.step > self.ckpt_step:
            self._checkpoint_now()
        self._teardown()
        if event:
            self._event(event, self.step, error)
        self.job.finish(state, utc_now(), error)
        self.recorder.run_row(self._run_row(state))
        if state == JobState.COMPLETED:
            self.recorder.log.done()
        self.recorder.log.note(f"job {self.job_id} {state} at iteration {self.step}" + (f": {error}" if error else ""))
        self.recorder.flush_final()  # before the outcome: a scheduler reaping the job then reads its final row
        self.outcome = state
        raise _Stop

    def _event(self, kind: str, step: int, detail: str) -> None:
        self.recorder.event(kind, step, detail)
        self._tell(kind, step, detail)

    def _rewind(self, step: int, detail: str) -> None:
        self.recorder.rewind(step, "restart", detail)
        self._tell("restart", step, detail)

    def _tell(self, kind: str, step: int, detail: str) -> None:
        if self.on_event is not None:
            try:
                self.on_event(self, kind, step, detail)
            except Exception as exc:  # a display callback never takes the job down
                log.debug("on_event: %s", exc)

    def _wait_for_workers(self) -> None:
        self.job.wait()
        self.recorder.flush(force=True)


    # -- the gang: started, trained, checkpointed (through the driver), recorded here --------------------
    def _start_gang(self, gang: Gang, n: int) -> None:
        """Start (or, after a resize, restart) the job on ``gang``'s ``n`` workers from the newest checkpoint,
        then record the new placement: the job's row, its run, the log's header, an allocation and, when the
        size or layout changed, a resize event."""
        previous = self.placement
        started = self.driver.start(gang, n, self._shape(),
                                    mark=lambda what: self.timeline.append((what, time.time(), self.step)))
        self.step, self.placement = started.step, started.placement
        placement, lay = started.placement, started.placement.layout
        self.recent_step_ms.clear()
        self.timeline.append(("launched", time.time(), self.step))
        detail = self._plan_json(placement)
        self.job.run(n, json.dumps(detail, sort_keys=True))
        self.recorder.run_row(self._run_row("running"))
        log_ = self.recorder.log
        log_.header(n, lay.dp, lay.tp, lay.pp, self.spec, placement.micro_batch)
        if started.checkpoint is not None:
            log_.loaded(started.checkpoint, self.step, lay.tp, lay.pp)
        change = self._pending_change
        self._pending_change = None
        # Relaunched at the same size after a failure: the restart event says it all.
        if change is not None or previous is None or previous.workers != n:
            kind, reason = change[:2] if change else ("shrink" if previous and n < previous.workers else "grow",
                                                      "after a failure")
            if kind == "start" and self.step > 0:
                kind, reason = "resume", f"{reason}; resumed from the checkpoint at step {self.step}"
            if n < self.target:
                reason += f" ({self.target} wanted, {n} could be placed)"
            self.recorder.allocation(n, detail, f"{kind}: {reason}", self.source)
            if previous is not None and (previous.workers != n or previous.layout != lay):
                self._event("resize", self.step, f"{previous.workers} -> {n} workers "
                                    f"({previous.describe()} -> {placement.describe()}): {reason}")
        self.recorder.flush(force=True)

    def _plan_json(self, placement: Placement) -> dict[str, Any]:
        return self.driver.plan_json(placement, self._shape())

    def _run_row(self, status: str) -> dict[str, Any]:
        return run_row(self.run_id, self.job, self.spec, self.placement, status, self.recorder.log.path,
                       "gpu" if self._shape().gpus else "cpu")

    def _train_chunk(self) -> None:
        n, export = self.driver.chunk(self.step)
        try:
            results = self.driver.train(n, export)
        except WorkerFailure as exc:
            self._failed(exc)
            return
        first_after_launch = self.timeline and self.timeline[-1][0] == "launched"
        for i in range(n):
            per_rank = [r["metrics"][i] for r in results]
            step = per_rank[0]["step"]
            merged = merge_metrics(self.spec, per_rank)
            self.recorder.metrics(step, merged, ts=max(r["ts"] for r in per_rank))
            self.recorder.log.iteration(step, self.spec.steps, merged, self.spec.global_batch)
            self.last_metrics = merged
            if not (first_after_launch and i == 0):
                self.recent_step_ms.append(merged["step_time_ms"])
        self.step = results[0]["metrics"][-1]["step"]
        if first_after_launch:
            self.timeline.append(("first_step", time.time(), self.step))
        if export:
            self._save([r["state"] for r in results if r["state"] is not None])
        self.job.run()
        self.recorder.flush()
        if self.on_progress is not None:
            self.on_progress(self, self.step, self.last_metrics)

    def _save(self, shards: list[Any]) -> None:
        if not shards or self.step <= self.ckpt_step and ckpt.latest(self.ckpt_dir) is not None:
            return
        # The steps up to a checkpoint must be in the database before the checkpoint exists: a driver that
        # dies after saving but before flushing would otherwise leave a resume point past metrics that were
        # never written, and the resumed job would skip them. If the database stays busy, skip this
        # checkpoint (the previous one stays the resume point) rather than save ahead of the metrics.
        if not self.recorder.flush(force=True):
            log.warning("job %s: metrics not flushed, checkpoint at step %d skipped", self.job_id, self.step)
            return
        state = ckpt.merge(shards, self.placement.layout)
        path = ckpt.save(self.ckpt_dir, state, {"job_id": self.job_id, "layout": self.placement.to_dict()})
        self.ckpt_step = state["step"]
        self.recorder.log.saved(path, self.ckpt_step)
        self._event("checkpoint", self.ckpt_step, str(path))

    def _checkpoint_now(self) -> None:
        """Save the current step (before a resize or a preemption) unless it is saved already."""
        if self.gang is None or self.step == self.ckpt_step:
            return
        try:
            shards = self.driver.export()
        except WorkerFailure as exc:
            log.warning("job %s: checkpoint at step %d failed (%s); resuming from step %d",
                        self.job_id, self.step, exc, self.ckpt_step)
            self._event("failure", self.step, f"checkpoint before a change failed: {exc}")
            self._teardown()
            self.step = self.ckpt_step
            self._rewind(self.step, f"restarting from checkpoint at step {self.step}")
            return
        self._save(shards)

    def _teardown(self) -> None:
        self.driver.teardown()
