"""Driving a job's gang of workers on Ray: placing a gang of the largest feasible size, starting it (or
restarting it after a resize) from the newest checkpoint, training it in chunks of steps, merging the ranks'
metrics, checkpointing, and naming the worker that failed.

:class:`GangDriver` is the half of :class:`~assay.jobs._supervisor.JobSupervisor` that talks to the workers;
the supervisor sets the state declared below and supplies the hooks through which a failure, an event or a
rewind reaches the job's life (``_failed``, ``_event``, ``_rewind``).
"""

from __future__ import annotations

import json
import logging
import time
from collections import deque
from pathlib import Path
from typing import Any

from assay.clock import utc_now
from assay.domain.job_spec import JobSpec
from assay.jobs._layout import Placement, feasible_workers, plan
from assay.jobs._ray import Gang, WorkerShape, cluster_totals, default_shape, reserve, start_actors
from assay.jobs._record import Recorder
from assay.store.job_state import JobState
from assay.training import checkpoint as ckpt

log = logging.getLogger(__name__)

#: Seconds of training per call to the workers: short enough for live metrics and a prompt resize,
#: long enough that the call overhead stays small.
CHUNK_S = 0.5
#: Seconds to wait for each smaller size when the full size cannot be placed.
SHRINK_TRY_S = 5.0


class WorkerFailure(RuntimeError):
    """A worker died, raised, or stopped making progress."""


class GangDriver:
    """Places, starts, trains and checkpoints one job's gang of workers (see the module's docstring)."""

    # Set by JobSupervisor.__init__.
    spec: JobSpec
    job: dict[str, Any]
    job_id: str
    run_id: str
    ckpt_dir: Path
    recorder: Recorder
    target: int
    shape: WorkerShape | None
    source: str
    pg_timeout_s: float
    hang_timeout_s: float
    on_progress: Any
    step: int
    ckpt_step: int
    placement: Placement | None
    gang: Gang | None
    last_metrics: dict[str, float]
    recent_step_ms: deque[float]
    timeline: list[tuple[str, float, int]]
    _step_ms: float
    _pending_change: tuple[str, str, Placement | None] | None

    # Hooks into the job's life, supplied by JobSupervisor.
    def _failed(self, exc: WorkerFailure) -> None:
        raise NotImplementedError

    def _event(self, kind: str, step: int, detail: str) -> None:
        raise NotImplementedError

    def _rewind(self, step: int, detail: str) -> None:
        raise NotImplementedError

    # -- placing and starting the gang ------------------------------------------------------------------
    def _shape(self) -> WorkerShape:
        if self.shape is None:
            self.shape = default_shape(self.target, self.spec.device)
        return self.shape

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
                _, pp_rank, tp_rank = lay.coords(rank)
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
        self.job.update(state=JobState.RUNNING, workers=n, plan=json.dumps(detail, sort_keys=True))
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
            "started_at": self.job.get("started_at"), "ended_at": utc_now() if status != "running" else None,
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
        self.job["state"] = JobState.RUNNING
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
