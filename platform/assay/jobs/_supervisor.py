"""The supervisor of one job: launches its workers on Ray, drives them step by step, checkpoints, and
carries the job through failures, resizes and preemption.

It runs in a thread of the driver process (``assay jobs run`` or ``assay scheduler``), which is the only
process that writes the job's rows. The job's progress lives in two durable places: its checkpoints
(files) and its rows (database). After any interruption (a killed worker, a lost node, a killed driver)
the job resumes from its newest checkpoint, deleting the metrics of the steps after it, which run again:
the metric series holds every step exactly once.
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

from assay.ids import stable_id
from assay.jobs import _checkpoint as ckpt
from assay.jobs._layout import Placement, feasible_workers, plan
from assay.jobs._ray import Gang, WorkerShape, cluster_totals, default_shape, reserve, start_actors
from assay.jobs._record import Recorder, now, owner_id
from assay.jobs.spec import JobSpec, from_json

log = logging.getLogger(__name__)

#: Seconds of training per call to the workers: short enough for live metrics and a prompt resize,
#: long enough that the call overhead stays small.
CHUNK_S = 0.5
#: Seconds to wait for each smaller size when the full size cannot be placed.
SHRINK_TRY_S = 5.0
#: Seconds between heartbeats of a job's row.
HEARTBEAT_S = 5.0


class WorkerFailure(RuntimeError):
    """A worker died, raised, or stopped making progress."""


class _Stop(Exception):
    """The job leaves this supervisor (finished, preempted, cancelled or failed)."""


@dataclass
class _Request:
    kind: str  # "resize", "preempt", "cancel"
    workers: int = 0
    reason: str = ""
    source: str = "runner"


def run_id_of(job_id: str) -> str:
    return stable_id("job-run", job_id)


class JobSupervisor:
    """Runs one job. Start it with :meth:`start`; steer it with :meth:`resize` and :meth:`stop`.

    ``workers`` is how many workers the job should have (its spec's layout size when None); on a
    shortage it runs on what the cluster can place, never fewer than ``min_workers``."""

    def __init__(self, db: Any, job: dict[str, Any], jobs_dir: Path, *, workers: int | None = None,
                 shape: WorkerShape | None = None, source: str = "runner", start_reason: str = "started",
                 pg_timeout_s: float = 15.0,
                 hang_timeout_s: float = 120.0, on_progress: Callable[[JobSupervisor, int, dict], None] | None = None,
                 on_event: Callable[[JobSupervisor, str, int, str], None] | None = None):
        self.spec: JobSpec = from_json(job["spec"])
        self.job = job
        self.job_id = job["job_id"]
        self.db = db
        self.dir = Path(jobs_dir) / self.job_id
        self.ckpt_dir = self.dir / "checkpoints"
        self.run_id = run_id_of(self.job_id)
        self.recorder = Recorder(db, job, self.run_id, self.dir / "train.log")
        self.target = workers or self.spec.requested_workers
        self.shape = shape
        self.source = source
        self.pg_timeout_s = pg_timeout_s
        self.hang_timeout_s = hang_timeout_s
        self.on_progress = on_progress
        self.on_event = on_event
        self.step = 0
        self.ckpt_step = 0
        self.placement: Placement | None = None
        self.gang: Gang | None = None
        self.last_metrics: dict[str, float] = {}
        #: Step times at the current placement, the first step after a launch (warm-up) left out.
        self.recent_step_ms: deque[float] = deque(maxlen=32)
        self.timeline: list[tuple[str, float, int]] = []  # (what, time.time(), step), for benchmarks/tests
        self.outcome: str | None = None
        self._requests: list[_Request] = []
        self._lock = threading.Lock()
        self._step_ms = 0.0
        self._pending_change: tuple[str, str, Placement | None] | None = ("start", start_reason, None)
        self.thread = threading.Thread(target=self._main, name=f"assay-job-{self.job_id}", daemon=True)

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
    def state(self) -> str:
        return str(self.job.get("state"))

    def resize(self, workers: int, reason: str, source: str = "runner") -> None:
        """Move the job to ``workers`` workers at its next step boundary (checkpoint, re-plan, restart)."""
        with self._lock:
            self._requests = [r for r in self._requests if r.kind != "resize"]
            self._requests.append(_Request("resize", workers, reason, source))

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
            if what in ("start", "resize_requested", "failure", "preempt_requested"):
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
            self._finish("completed", "")
        except _Stop:
            pass
        except Exception as exc:  # a bug or an unreadable checkpoint: the job fails, the driver lives on
            log.exception("job %s failed", self.job_id)
            try:
                self._finish("failed", f"{type(exc).__name__}: {exc}")
            except _Stop:
                pass
        finally:
            self._teardown()
            if self.outcome is None:
                self.outcome = str(self.job.get("state"))

    def _prepare(self) -> None:
        resumed = self.job.get("started_at") is not None
        self.ckpt_step = self.step = ckpt.latest_step(self.ckpt_dir)
        self.job.update(state="starting", owner=owner_id(), error=None)
        if self.job.get("started_at") is None:
            self.job["started_at"] = now()
        if resumed:
            self._rewind(self.step, f"resumed by {owner_id()} from checkpoint at step {self.step}")
            self.recorder.log.note(f"resuming job {self.job_id} at iteration {self.step}")
        else:
            self.recorder.flush(force=True)

    def _shape(self) -> WorkerShape:
        if self.shape is None:
            self.shape = default_shape(self.target, self.spec.device)
        return self.shape

    def _launch(self) -> None:
        """Start a gang: the target size when the cluster can place it, else the largest feasible size that
        fits (a lost node shrinks the job), waiting while not even ``min_workers`` fit."""
        waited = False
        while True:
            self._apply_requests()
            if self.gang is not None:
                return
            want = min(self.target, self.spec.max_workers or self.target)
            slots, n = self._reserve(want, have=0)
            if slots is None:
                if not waited:
                    log.info("job %s: waiting for %d workers", self.job_id, self.spec.min_workers)
                    self._set_state("waiting")
                    waited = True
                time.sleep(1.0)
                continue
            try:
                self._start_gang(Gang(slots), n)
                return
            except WorkerFailure as exc:
                self._failed(exc)

    def _reserve(self, want: int, have: int) -> tuple[list[Any] | None, int]:
        """Slots for a gang of the largest feasible size up to ``want`` (``have`` slots held already): the
        full size if the cluster places it, else the largest that the live cluster can hold and places
        within a few seconds. (None, 0) if not even ``min_workers``, or nothing beyond ``have``, fit."""
        shape = self._shape()
        name = f"assay-{self.job_id}"
        n = feasible_workers(self.spec, want)
        if n > have:
            # Give up on the full size as soon as the live cluster is too small for it (a lost node).
            slots = reserve(n - have, shape, self.pg_timeout_s, name, give_up=lambda: shape.fit(cluster_totals()) < n)
            if slots is not None:
                return slots, n
        # Smaller sizes, judged by the live cluster's totals: what is "available" lags behind the
        # reservations just released, which would shrink the job more than the lost capacity demands.
        k = feasible_workers(self.spec, min(n - 1, shape.fit(cluster_totals())))
        while k >= max(self.spec.min_workers, have + 1):
            slots = reserve(k - have, shape, SHRINK_TRY_S, name,
                            give_up=lambda k=k: shape.fit(cluster_totals()) < k)
            if slots is not None:
                return slots, k
            k = feasible_workers(self.spec, k - 1)
        return None, 0

    def _start_gang(self, gang: Gang, n: int) -> None:
        """Start (or, after a resize, restart) training on ``gang``'s ``n`` workers from the newest
        checkpoint: workers it lacks are started, every worker joins a fresh process group."""
        import ray

        placement = plan(self.spec, n)
        previous = self.placement
        self.gang = gang
        self.timeline.append(("reserved", time.time(), self.step))
        try:
            start_actors(gang, self._shape(), timeout_s=max(60.0, self.pg_timeout_s))
            self.timeline.append(("actors_up", time.time(), self.step))
            state_path = ckpt.latest(self.ckpt_dir)
            full = ckpt.load(state_path) if state_path else None
            if full is not None:
                ckpt.check_complete(full, self.spec)
            rendezvous = ray.get(gang.actors[0].info.remote(), timeout=60)  # a fresh port every time
            master = f"{rendezvous['ip']}:{rendezvous['port']}"
            lay = placement.layout
            bounds = list(placement.bounds) if placement.bounds else None
            refs, shards = [], {}
            for rank, actor in enumerate(gang.actors):
                from assay.jobs._parallel import coords_of

                _, pp_rank, tp_rank = coords_of(lay, rank)
                shard = None
                if full is not None:
                    if (pp_rank, tp_rank) not in shards:
                        shards[(pp_rank, tp_rank)] = ray.put(ckpt.slice_for(full, self.spec, lay, pp_rank, tp_rank,
                                                                            bounds))
                    shard = shards[(pp_rank, tp_rank)]
                refs.append(actor.setup.remote(self.spec.to_json(), (lay.dp, lay.tp, lay.pp), placement.micro_batch,
                                               bounds, rank, master, shard, self.hang_timeout_s))
            steps = self._wait(refs, max(60.0, self.hang_timeout_s))
        except WorkerFailure:
            raise
        except Exception as exc:
            if _is_ray_failure(exc):
                raise WorkerFailure(f"starting workers: {_first_line(exc)}") from exc
            raise
        self.step = int(steps[0])
        self.placement = placement
        self._step_ms = 0.0
        self.recent_step_ms.clear()
        self.timeline.append(("launched", time.time(), self.step))
        detail = self._plan_json(placement)
        self.job.update(state="running", workers=n, plan=json.dumps(detail, sort_keys=True))
        self.recorder.run_row(self._run_row("running"))
        log_ = self.recorder.log
        log_.header(n, lay.dp, lay.tp, lay.pp, self.spec, placement.micro_batch)
        if state_path is not None:
            log_.loaded(state_path, self.step, lay.tp, lay.pp)
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
        out = placement.to_dict()
        if self.gang is not None:
            out["pids"] = self.gang.pids
            out["nodes"] = sorted(set(self.gang.nodes))
            out["worker_cpus"] = self._shape().cpus
        return out

    def _run_row(self, status: str) -> dict[str, Any]:
        p = self.placement
        m = self.spec.model
        return {
            "run_id": self.run_id, "source_uri": str(self.recorder.log.path), "framework": "assay",
            "status": status, "model": f"gpt-{m.layers}l-{m.hidden}h", "job_id": self.job_id,
            "world_size": p.workers if p else None, "dp": p.layout.dp if p else None,
            "tp": p.layout.tp if p else None, "pp": p.layout.pp if p else None,
            "micro_batch_size": p.micro_batch if p else None, "global_batch_size": self.spec.global_batch,
            "started_at": self.job.get("started_at"), "ended_at": now() if status != "running" else None,
            "hardware": "gpu" if self._shape().gpus else "cpu",
            "config": json.dumps({"spec": self.spec.to_dict(), "plan": p.to_dict() if p else None},
                                 sort_keys=True, default=str),
        }

    # -- training -------------------------------------------------------------------------------------
    def _chunk(self) -> tuple[int, bool]:
        left = self.spec.steps - self.step
        to_ckpt = self.spec.checkpoint_every - self.step % self.spec.checkpoint_every
        n = 1 if self._step_ms <= 0 else max(1, int(CHUNK_S * 1000 / self._step_ms))
        n = min(n, left, to_ckpt)
        return n, (n == to_ckpt or n == left)

    def _train_chunk(self) -> None:
        n, export = self._chunk()
        started = time.perf_counter()
        try:
            results = self._wait([a.run.remote(n, export) for a in self.gang.actors], self._chunk_timeout(n))
        except WorkerFailure as exc:
            self._failed(exc)
            return
        self._step_ms = (time.perf_counter() - started) * 1000.0 / n
        first_after_launch = self.timeline and self.timeline[-1][0] == "launched"
        for i in range(n):
            per_rank = [r["metrics"][i] for r in results]
            step = per_rank[0]["step"]
            merged = self._merge(per_rank)
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
        self.job["state"] = "running"
        self.recorder.flush()
        if self.on_progress is not None:
            self.on_progress(self, self.step, self.last_metrics)

    def _chunk_timeout(self, n: int) -> float:
        return max(self.hang_timeout_s, 20 * n * self._step_ms / 1000.0)

    def _merge(self, per_rank: list[dict[str, float]]) -> dict[str, float]:
        losses = [m["loss"] for m in per_rank if m["loss"] == m["loss"]]
        step_ms = max(m["step_time_ms"] for m in per_rank)
        tokens = self.spec.tokens_per_step
        return {
            "loss": losses[0] if losses else float("nan"),
            "grad_norm": per_rank[0]["grad_norm"],
            "lr": per_rank[0]["lr"],
            "step_time_ms": step_ms,
            "tokens_per_s": tokens / (step_ms / 1000.0) if step_ms > 0 else float("nan"),
            "samples_per_s": self.spec.global_batch / (step_ms / 1000.0) if step_ms > 0 else float("nan"),
            "memory_mb": max(m["memory_mb"] for m in per_rank),
        }

    def _wait(self, refs: list[Any], timeout_s: float) -> list[Any]:
        """Results of ``refs`` in order; :class:`WorkerFailure` as soon as one fails, or on no progress."""
        import ray

        pending = list(refs)
        deadline = time.monotonic() + timeout_s
        while pending:
            ready, pending = ray.wait(pending, num_returns=1, timeout=max(0.0, deadline - time.monotonic()))
            if not ready:
                raise WorkerFailure(f"no progress from {len(pending)} worker(s) in {timeout_s:.0f}s")
            try:
                ray.get(ready[0])
            except Exception as exc:
                raise WorkerFailure(self._describe_failure(refs, ready[0], exc)) from exc
        return ray.get(refs)

    def _describe_failure(self, refs: list[Any], failed: Any, exc: Exception) -> str:
        import ray

        rank = refs.index(failed)
        # A dead process usually makes its peers raise too; name the one that died if it shows quickly.
        ray.wait([r for r in refs if r != failed], num_returns=len(refs) - 1, timeout=1.0)
        for i, ref in enumerate(refs):
            try:
                ray.get(ref, timeout=0)
            except ray.exceptions.RayActorError:
                rank, exc = i, ray.exceptions.RayActorError()
                break
            except Exception:
                continue
        info = self.gang.infos[rank] if self.gang and rank < len(self.gang.infos) else {}
        return (f"rank {rank} (pid {info.get('pid')}, node {str(info.get('node_id'))[:12]}): "
                f"{type(exc).__name__}: {_first_line(exc)}")

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
            shards = self._wait([a.export.remote() for a in self.gang.actors], self.hang_timeout_s)
        except WorkerFailure as exc:
            log.warning("job %s: checkpoint at step %d failed (%s); resuming from step %d",
                        self.job_id, self.step, exc, self.ckpt_step)
            self._event("failure", self.step, f"checkpoint before a change failed: {exc}")
            self._teardown()
            self.step = self.ckpt_step
            self._rewind(self.step, f"restarting from checkpoint at step {self.step}")
            return
        self._save([s for s in shards if s is not None])

    # -- failures, requests, endings ------------------------------------------------------------------
    def _failed(self, exc: WorkerFailure) -> None:
        self.timeline.append(("failure", time.time(), self.step))
        attempts = int(self.job.get("attempts") or 0) + 1
        self.job["attempts"] = attempts
        self._event("failure", self.step, str(exc))
        self._teardown()
        if attempts > self.spec.max_failures:
            self._finish("failed", f"{attempts} failures, more than max_failures={self.spec.max_failures}: {exc}")
        resume_at = ckpt.latest_step(self.ckpt_dir)
        self.ckpt_step = self.step = resume_at
        self.job["state"] = "restarting"
        self._rewind(resume_at, f"restarting from checkpoint at step {resume_at} after "
                             f"failure {attempts} of at most {self.spec.max_failures}")
        self.recorder.log.restarting(resume_at, f"failure {attempts} of at most {self.spec.max_failures}: {exc}")

    def _apply_requests(self) -> None:
        with self._lock:
            requests, self._requests = self._requests, []
        for req in requests:
            if req.kind in ("preempt", "cancel"):
                self._stop(req)
        resize = next((r for r in reversed(requests) if r.kind == "resize"), None)
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
            extra, n = self._reserve(want, have)
            if extra is None:
                self._pending_change = None
                self.recorder.allocation(current, self._plan_json(self.placement),
                                         f"resize to {resize.workers} kept {current}: no room on the cluster "
                                         f"({resize.reason})", resize.source)
                return
            self.gang.workers += extra
        else:
            self.gang.keep(n)
        self.job["state"] = "resizing"
        try:
            self._start_gang(self.gang, n)
        except WorkerFailure as exc:
            self._failed(exc)

    def _stop(self, req: _Request) -> None:
        self._checkpoint_now()
        self._teardown()
        if req.kind == "cancel":
            self.recorder.allocation(0, None, f"cancel: {req.reason}", req.source)
            self._finish("cancelled", req.reason, event="cancelled")
        self._event("preempted", self.step, req.reason)
        self.recorder.log.note(f"job {self.job_id} preempted at iteration {self.step}: {req.reason}")
        self.recorder.allocation(0, None, f"preempt: {req.reason}", req.source)
        self.job.update(state="preempted", workers=0, owner=None)
        self.recorder.run_row(self._run_row("preempted"))
        self.recorder.flush_final()
        self.outcome = "preempted"
        raise _Stop

    def _finish(self, state: str, error: str, event: str | None = None) -> None:
        if state == "completed" and self.gang is not None and self.step > self.ckpt_step:
            self._checkpoint_now()
        self._teardown()
        if event:
            self._event(event, self.step, error)
        self.job.update(state=state, finished_at=now(), error=error or None, workers=0)
        self.recorder.run_row(self._run_row(state))
        if state == "completed":
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

    def _set_state(self, state: str) -> None:
        self.job["state"] = state
        self.recorder.flush(force=True)

    def _teardown(self) -> None:
        if self.gang is not None:
            self.gang.kill()
            self.gang = None


def _is_ray_failure(exc: Exception) -> bool:
    try:
        import ray.exceptions as rex
    except ImportError:
        return False
    return isinstance(exc, rex.RayError)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    lines = [ln for ln in text.splitlines() if ln.strip()]
    # Ray's task errors start with a traceback header; the last line says what went wrong.
    return (lines[-1] if len(lines) > 1 else lines[0])[:300]
