"""Driving a job's gang of workers on Ray: placing a gang of the largest feasible size, starting it (or
restarting it after a resize) from the newest checkpoint, training it in chunks of steps, exporting its
shards, merging the ranks' metrics, and naming the worker that failed.

:class:`GangDriver` is an object the supervisor (:class:`~assay.jobs._supervisor.JobSupervisor`) owns, one
per job. It knows nothing of the job's life: each call gets what it needs as arguments (the worker shape,
the step to start from) and answers with a return value, or raises :class:`WorkerFailure`; the supervisor
decides what a failure means, records the rows and moves the job's state.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assay.domain.job_spec import JobSpec
from assay.jobs._gang import Gang, WorkerShape, cluster_totals, reserve, start_actors
from assay.jobs._layout import Placement, feasible_workers, plan
from assay.ray_session import gangs
from assay.training import checkpoint as ckpt

#: Seconds of training per call to the workers: short enough for live metrics and a prompt resize,
#: long enough that the call overhead stays small.
CHUNK_S = 0.5
#: Seconds to wait for each smaller size when the full size cannot be placed.
SHRINK_TRY_S = 5.0


class WorkerFailure(RuntimeError):
    """A worker died, raised, or stopped making progress."""


@dataclass(frozen=True)
class Started:
    """A gang started: the step its workers resume at, where they run, and the checkpoint they loaded (None
    for a fresh start)."""

    step: int
    placement: Placement
    checkpoint: Path | None


class GangDriver:
    """Places, starts, trains and exports one job's gang of workers (see the module's docstring). ``gang``
    is the running gang (None between gangs)."""

    def __init__(self, spec: JobSpec, job_id: str, ckpt_dir: Path, *, pg_timeout_s: float = 15.0,
                 hang_timeout_s: float = 120.0):
        self.spec = spec
        self.job_id = job_id
        self.ckpt_dir = ckpt_dir
        self.pg_timeout_s = pg_timeout_s
        self.hang_timeout_s = hang_timeout_s
        self.gang: Gang | None = None
        #: Milliseconds per step of the last chunk (0 after a start: the next chunk is one step).
        self.step_ms = 0.0

    # -- placing and starting the gang ------------------------------------------------------------------
    def reserve(self, want: int, have: int, shape: WorkerShape) -> tuple[list[Any] | None, int]:
        """Slots for a gang of the largest feasible size up to ``want`` (``have`` slots held already): the
        full size if the cluster places it, else the largest that the live cluster can hold and places
        within a few seconds. (None, 0) if not even ``min_workers``, or nothing beyond ``have``, fit."""
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

    def start(self, gang: Gang, n: int, shape: WorkerShape, mark: Callable[[str], None] = lambda what: None
              ) -> Started:
        """Start (or, after a resize, restart) training on ``gang``'s ``n`` workers from the newest
        checkpoint: workers it lacks are started, every worker joins a fresh process group. ``mark`` is told
        each stage (``reserved``, ``actors_up``). The gang is this driver's from the first moment, so a
        failure half-way leaves it to :meth:`teardown`."""
        placement = plan(self.spec, n)
        self.gang = gang
        mark("reserved")
        try:
            start_actors(gang, shape, timeout_s=max(60.0, self.pg_timeout_s))
            mark("actors_up")
            state_path = ckpt.latest(self.ckpt_dir)
            full = ckpt.load(state_path) if state_path else None
            if full is not None:
                ckpt.check_complete(full, self.spec)
            rendezvous = gangs.results([gangs.call(gang.actors[0], "info")], 60)[0]  # a fresh port every time
            master = f"{rendezvous['ip']}:{rendezvous['port']}"
            lay = placement.layout
            bounds = list(placement.bounds) if placement.bounds else None
            refs, shards = [], {}
            for rank, actor in enumerate(gang.actors):
                _, pp_rank, tp_rank = lay.coords(rank)
                shard = None
                if full is not None:
                    if (pp_rank, tp_rank) not in shards:
                        shards[(pp_rank, tp_rank)] = gangs.share(ckpt.slice_for(full, self.spec, lay, pp_rank, tp_rank,
                                                                            bounds))
                    shard = shards[(pp_rank, tp_rank)]
                refs.append(gangs.call(actor, "setup", self.spec.to_json(), (lay.dp, lay.tp, lay.pp),
                                       placement.micro_batch, bounds, rank, master, shard, self.hang_timeout_s))
            steps = self._wait(refs, max(60.0, self.hang_timeout_s))
        except WorkerFailure:
            raise
        except Exception as exc:
            if gangs.is_ray_error(exc):
                raise WorkerFailure(f"starting workers: {_first_line(exc)}") from exc
            raise
        self.step_ms = 0.0
        return Started(int(steps[0]), placement, state_path)

    def plan_json(self, placement: Placement, shape: WorkerShape) -> dict[str, Any]:
        """The placement as an allocation records it, with the gang's pids, nodes and CPUs per worker."""
        out = placement.to_dict()
        if self.gang is not None:
            out["pids"] = self.gang.pids
            out["nodes"] = sorted(set(self.gang.nodes))
            out["worker_cpus"] = shape.cpus
        return out

    # -- training -------------------------------------------------------------------------------------
    def chunk(self, step: int) -> tuple[int, bool]:
        """How many steps to train from ``step`` in the next call (about :data:`CHUNK_S` seconds, never past a
        checkpoint or the end), and whether the workers export their shards after it."""
        left = self.spec.steps - step
        to_ckpt = self.spec.checkpoint_every - step % self.spec.checkpoint_every
        n = 1 if self.step_ms <= 0 else max(1, int(CHUNK_S * 1000 / self.step_ms))
        n = min(n, left, to_ckpt)
        return n, (n == to_ckpt or n == left)

    def train(self, n: int, export: bool) -> list[dict[str, Any]]:
        """Train ``n`` steps on every rank; each rank's result (``metrics`` per step, ``ts``, ``state``: its
        shard when ``export``). :class:`WorkerFailure` if a worker fails or hangs."""
        started = time.perf_counter()
        results = self._wait(gangs.call_all(self.gang.actors, "run", n, export),
                             max(self.hang_timeout_s, 20 * n * self.step_ms / 1000.0))
        self.step_ms = (time.perf_counter() - started) * 1000.0 / n
        return results

    def export(self) -> list[Any]:
        """Every rank's shard of the current step (for a checkpoint before a change); :class:`WorkerFailure`
        if a worker fails or hangs."""
        shards = self._wait(gangs.call_all(self.gang.actors, "export"), self.hang_timeout_s)
        return [s for s in shards if s is not None]

    def teardown(self) -> None:
        """Kill the gang's workers and free its slots (nothing if there is no gang)."""
        if self.gang is not None:
            self.gang.kill()
            self.gang = None

    def _wait(self, calls: list[Any], timeout_s: float) -> list[Any]:
        """Results of ``calls`` in order; :class:`WorkerFailure` as soon as one fails, or on no progress."""
        try:
            return gangs.gather(calls, timeout_s)
        except gangs.NoProgress as exc:
            raise WorkerFailure(str(exc)) from None
        except gangs.CallFailed as exc:
            raise WorkerFailure(self._describe_failure(exc.index, exc.error)) from exc.__cause__

    def _describe_failure(self, rank: int, exc: BaseException) -> str:
        info = self.gang.infos[rank] if self.gang and rank < len(self.gang.infos) else {}
        return (f"rank {rank} (pid {info.get('pid')}, node {str(info.get('node_id'))[:12]}): "
                f"{type(exc).__name__}: {_first_line(exc)}")


def merge_metrics(spec: JobSpec, per_rank: list[dict[str, float]]) -> dict[str, float]:
    """One step's metrics from its ranks': the loss of the rank that has it (the last pipeline stage), the
    slowest rank's time, throughput from it, the largest memory."""
    losses = [m["loss"] for m in per_rank if m["loss"] == m["loss"]]
    step_ms = max(m["step_time_ms"] for m in per_rank)
    return {
        "loss": losses[0] if losses else float("nan"),
        "grad_norm": per_rank[0]["grad_norm"],
        "lr": per_rank[0]["lr"],
        "step_time_ms": step_ms,
        "tokens_per_s": spec.tokens_per_step / (step_ms / 1000.0) if step_ms > 0 else float("nan"),
        "samples_per_s": spec.global_batch / (step_ms / 1000.0) if step_ms > 0 else float("nan"),
        "memory_mb": max(m["memory_mb"] for m in per_rank),
    }


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    lines = [ln for ln in text.splitlines() if ln.strip()]
    # Ray's task errors start with a traceback header; the last line says what went wrong.
    return (lines[-1] if len(lines) > 1 else lines[0])[:300]
