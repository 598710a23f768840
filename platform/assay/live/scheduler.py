"""The live scheduler: the job queue in the database, a policy from ``assay.scheduler`` deciding, and
job supervisors on Ray carrying the decisions out.

Each round (every ``interval_s``) it

1. forgets supervisors whose job ended (a preempted job goes back to the queue);
2. reads the queue: queued and preempted jobs, and *orphans* (jobs whose driver died: a previous
   scheduler, or an ``assay jobs run`` that was killed), which resume from their checkpoints;
3. applies users' cancel and resize requests (a resize pins the job to that many workers);
4. asks the policy for a decision per job, on a view of the cluster's worker slots (jobs run by other
   live drivers count as used);
5. carries out preemptions and shrinks first, then starts and grows that fit in what is free; each
   change lands in ``allocations`` with the policy's reason, and so does every new decision to wait.

On a Ray cluster whose nodes carry two or more GPU types (``gpu_type:<name>`` custom resources, see
``assay.jobs._pools``) the policy sees each node's type and decides a (type, workers) per job; a job's
workers all sit in one type's pool, and a decision to run a job on another type is carried out as a move
(checkpoint, stop, restart in the new pool from the checkpoint). A cluster of one type schedules as before.

Two brakes keep the cluster from thrashing, since every change costs a checkpoint and a restart: a running
job changes size at most once per ``min_change_s``, and is preempted for a job of equal or lower priority
only after ``min_run_s`` (a higher-priority job preempts it as soon as ``min_change_s`` allows).

Everything it knows is in the database and the jobs' checkpoints: a scheduler killed and started again
adopts the jobs it was running (their driver, itself, is gone) and resumes them.

Why one module: one scheduling round (queue, requests, policy, preemptions, starts) is one state machine over
the same mutable state; its parts are methods of it.
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC
from pathlib import Path
from typing import Any

from assay.clock import utc_now
from assay.domain.job import Job
from assay.jobs.control import (
    JobSpec,
    RequestPoller,
    db_call,
    feasible_workers,
    jobs_dir,
    owner_alive,
    owner_id,
    request_cancel,
    worker_shape,
)
from assay.store import queries_jobs as q
from assay.store import set_state_if, write_rows
from assay.store.job_state import ACTIVE_STATES, FINAL_STATES, WAITING_STATES, JobState, job_from_row

log = logging.getLogger(__name__)

ACTIVE = (*ACTIVE_STATES, JobState.WAITING)


@dataclass
class _Tracked:
    """What the scheduler learns about a job across rounds."""

    spec: JobSpec
    model: Any = None  # a GoodputModel
    models: dict[str, Any] = field(default_factory=dict)  # on a cluster of several GPU types: one per type
    attained: float = 0.0  # worker-seconds
    decided: int | None = None  # the workers of the last decision written
    changed_at: float = 0.0
    pinned: int | None = None
    seen_at: float = field(default_factory=time.monotonic)
    waiting: str | None = None  # why it waits, as last recorded (None: not waiting)


class LiveScheduler:
    """Run the queue in ``db`` on the Ray cluster with ``policy`` (a name or a Policy object).

    ``slots`` is the number of workers the scheduler hands out (default: one per CPU, or per GPU, of
    the cluster's live nodes, divided by ``worker_cpus``)."""

    def __init__(self, db: Any = None, policy: Any = "goodput", *, slots: int | None = None,
                 address: str | None = None, interval_s: float = 2.0, worker_cpus: float | None = None,
                 min_change_s: float = 10.0, min_run_s: float = 60.0, knobs: Mapping[str, Any] | None = None,
                 jobs_root: Path | None = None, stale_s: float = 60.0,
                 on_round: Callable[[LiveScheduler, dict[str, Any]], None] | None = None):
        from assay.scheduler.policies import get_policy

        self.db = db
        knobs = dict(knobs or {})
        if policy == "fifo":  # live, a job that cannot start never blocks the jobs behind it that can
            knobs.setdefault("backfill", True)
        self.policy = get_policy(policy, **knobs) if isinstance(policy, str) else policy
        #: Unless told, a policy that prices restarts (goodput's ``restart_s``) learns what they cost here.
        self._learn_restart = "restart_s" not in (knobs or {}) and hasattr(self.policy, "restart_s")
        self._restart_costs: list[float] = []
        self.slots = slots
        self.address = address
        self.interval_s = interval_s
        self.worker_cpus = worker_cpus
        self.min_change_s = min_change_s
        self.min_run_s = min_run_s
        self.jobs_root = jobs_root or jobs_dir(db)
        self.stale_s = stale_s
        self.on_round = on_round
        self.sups: dict[str, Any] = {}
        self._told: set[str] = set()  # jobs whose end was reported while their supervisor winds down
        self.tracked: dict[str, _Tracked] = {}
        self.poller = RequestPoller(db)
        self.rounds = 0
        self.owner = owner_id()
        self._last_round = time.monotonic()
        self._shape: Any = None
        self._nodes: list[str] = []
        self._pools: Any = None  # the cluster's GPU-type pools (assay.jobs._pools.Pools), read each round
        #: The GPU type of each node in the policy's view; empty on a cluster of one type.
        self._node_types: tuple[str, ...] = ()

    # -- the loop ------------------------------------------------------------------------------------
    def run(self, *, until_idle: bool = False, max_rounds: int | None = None, timeout_s: float | None = None,
            until: Callable[[], bool] | None = None) -> None:
        """Schedule until interrupted (``until_idle``: until no job is left that could run: none is queued
        or running but jobs too big for the whole cluster, which wait on; ``until``: until it returns True,
        asked after each round, e.g. once the jobs a caller submitted have ended)."""
        from assay.ray_session import ensure_ray

        ensure_ray(self.address, log_to_driver=False)
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        reason = "scheduler stopped"
        try:
            while True:
                started = time.monotonic()
                info = self.round()
                if until_idle and info["idle"]:
                    return
                if until is not None and until():
                    return
                if max_rounds is not None and self.rounds >= max_rounds:
                    return
                if deadline is not None and time.monotonic() > deadline:
                    return
                time.sleep(max(0.0, self.interval_s - (time.monotonic() - started)))
        except KeyboardInterrupt:
            reason = "scheduler interrupted"
            raise
        finally:
            # Jobs must not die with this process unrecorded: checkpoint them and leave them preempted.
            self.shutdown(reason)

    def shutdown(self, reason: str = "scheduler stopped") -> None:
        """Preempt every job this scheduler runs (each checkpoints), so a new scheduler resumes them."""
        for sup in self.sups.values():
            sup.stop("preempt", reason, source="scheduler")
        for sup in self.sups.values():
            sup.join(120)
        self.sups.clear()

    def round(self) -> dict[str, Any]:
        """One scheduling round; returns what it saw and did (for tests and the CLI)."""
        from assay.scheduler.policies import ClusterView

        self.rounds += 1
        wall, mono = time.time(), time.monotonic()
        dt, self._last_round = mono - self._last_round, mono
        ended = self._reap()
        try:
            jobs = [job_from_row(row) for row in db_call(q.job_rows, self.db, WAITING_STATES + ACTIVE)]
        except Exception as exc:  # a busy database skips a round, it does not stop the jobs
            log.warning("scheduler: reading the queue failed: %s", exc)
            return {"idle": False, "decisions": {}, "ended": ended}
        candidates, foreign = [], 0
        for job in jobs:
            job_id = job.job_id
            if job_id in self.sups:
                candidates.append(job)
            elif job.state in WAITING_STATES or _queued_waiting(job):
                candidates.append(job)
            elif not owner_alive(job.owner, job.heartbeat_at, self.stale_s):
                log.info("scheduler: adopting orphaned job %s (owner %s gone)", job_id, job.owner)
                candidates.append(job)
            else:
                foreign += job.workers
        candidates = self._apply_requests(candidates)
        # A job whose supervisor ended after the queue was read is not decided on this round: its row is
        # stale (still "running"), and the next round reaps the supervisor and reads the row as it ended.
        candidates = [job for job in candidates if not self._ending(job.job_id)]
        for job in candidates:
            t = self._track(job)
            if job.job_id in self.sups:
                t.attained += dt * self.sups[job.job_id].workers
        self._learn_restart_cost()
        capacity = self._capacity(foreign)
        cluster = ClusterView(capacity=capacity, node_types=self._node_types)
        views = [self._view(job, cluster) for job in candidates]
        decisions = self.policy.decide(views, cluster, wall) if views else {}
        applied = self._apply(candidates, decisions, sum(capacity), foreign, capacity)
        # Idle: nothing runs and nothing left could ever start here (jobs bigger than the cluster wait on;
        # on a cluster of several GPU types, jobs bigger than its largest pool).
        whole = sum(capacity) + foreign
        largest = max(_per_type(capacity, self._node_types).values(), default=0) + foreign
        stuck = all(self._needed(self._track(r), whole) > largest for r in candidates)
        info = {"idle": stuck and not self.sups, "decisions": decisions, "applied": applied,
                "capacity": capacity, "node_types": self._node_types, "foreign": foreign, "ended": ended,
                "waiting": {r.job_id: self.tracked[r.job_id].waiting for r in candidates
                            if r.job_id in self.tracked and self.tracked[r.job_id].waiting}}
        if self.on_round is not None:
            self.on_round(self, info)
        return info

    # -- reading -------------------------------------------------------------------------------------
    def _reap(self) -> list[tuple[str, str]]:
        """Forget supervisors whose thread has ended; returns the jobs that ended since the last round (told
        as soon as their outcome is set, while their thread may still be winding down)."""
        ended = []
        for job_id, sup in list(self.sups.items()):
            if sup.outcome is not None and job_id not in self._told:
                self._told.add(job_id)
                ended.append((job_id, sup.outcome))
            if sup.done:
                self._told.discard(job_id)
                self._restart_costs = (self._restart_costs + sup.restart_costs())[-50:]
                del self.sups[job_id]
                t = self.tracked.get(job_id)
                if t is not None:
                    t.decided, t.changed_at = None, time.monotonic()
                if sup.outcome in FINAL_STATES:
                    self.tracked.pop(job_id, None)
        return ended

    def _ending(self, job_id: str) -> bool:
        sup = self.sups.get(job_id)
        return sup is not None and sup.outcome is not None

    def _learn_restart_cost(self) -> None:
        if not self._learn_restart:
            return
        costs = [c for sup in self.sups.values() for c in sup.restart_costs()] + self._restart_costs
        if costs:
            self.policy.restart_s = sorted(costs)[len(costs) // 2]

    def _track(self, job: Job) -> _Tracked:
        t = self.tracked.get(job.job_id)
        if t is None:
            spec = job.spec_of()
            t = self.tracked[job.job_id] = _Tracked(spec=spec, model=self._goodput_model(spec))
        return t

    def _goodput_model(self, spec: JobSpec) -> Any:
        from assay.scheduler.policies import BatchLimits, GoodputModel

        gb = spec.global_batch
        # The global batch is part of the job's semantics: fixed, reached by accumulation on any size.
        limits = BatchLimits(init_batch=gb, max_batch=gb, min_local=1, max_local=gb, fixed_batch=gb)
        return GoodputModel(limits, gpus_per_node=max(1, self.slots or 1))

    def _apply_requests(self, candidates: list[Job]) -> list[Job]:
        keep = []
        requests = {r["job_id"]: r for r in self.poller.poll({job.job_id: None for job in candidates})}
        for job in candidates:
            req = requests.get(job.job_id)
            if req is None:
                keep.append(job)
                continue
            job_id = job.job_id
            if req["request"] == "cancel":
                if job_id in self.sups:
                    self.sups[job_id].stop("cancel", req["reason"] or "cancelled by user", source="scheduler")
                    keep.append(job)
                else:
                    try:
                        request_cancel(self.db, job_id, req["reason"] or "cancelled by user")
                    except Exception as exc:
                        log.warning("scheduler: cancelling %s: %s", job_id, exc)
                continue
            self._track(job).pinned = int(req["workers"])
            log.info("scheduler: %s pinned to %d workers by a user request", job_id, req["workers"])
            keep.append(job)
        return keep

    def _worker_shape(self) -> Any:
        from assay.jobs.control import cluster_totals

        if self._shape is None:
            self._shape = worker_shape(cluster_totals(), self.slots, self.worker_cpus)
        return self._shape

    def _capacity(self, foreign: int) -> tuple[int, ...]:
        """Worker slots per live node, less the workers of jobs other drivers run."""
        from assay.jobs.control import node_slots, read_pools
        from assay.ray_session import live_nodes

        shape = self._worker_shape()
        nodes = live_nodes()
        resources = [n.resources for n in nodes]
        self._pools = pools = read_pools(resources)
        if pools.typed:  # the nodes of a pool only: a node without a type holds no workers here
            keep = [i for i, t in enumerate(pools.node_types) if t is not None]
            nodes, resources = [nodes[i] for i in keep], [resources[i] for i in keep]
            self._node_types = tuple(pools.node_types[i] for i in keep)
        else:
            self._node_types = ()
        self._nodes = [n.node_id for n in nodes]
        per_node = node_slots(shape, pools, resources)
        if self.slots:
            per_node = _cap(per_node, self.slots)
        left = foreign
        out = list(per_node)
        for i in sorted(range(len(out)), key=lambda i: -out[i]):
            take = min(out[i], left)
            out[i] -= take
            left -= take
        return tuple(out) if out else (0,)

    def _view(self, job: Job, cluster: Any) -> Any:
        from assay.scheduler.policies import JobView

        t = self._track(job)
        spec = t.spec
        sup = self.sups.get(job.job_id)
        workers, placement, gpu_type = 0, (), None
        if sup is not None and not sup.done:
            workers = sup.allocated
            gpu_type = getattr(sup, "gpu_type", None) if cluster.node_types else None
            placement = self._placement(sup, workers, cluster, gpu_type)
            model = t.model if gpu_type is None else t.models.setdefault(gpu_type, self._goodput_model(spec))
            if sup.placement is not None and len(sup.recent_step_ms) >= 3:
                ms = sorted(sup.recent_step_ms)[len(sup.recent_step_ms) // 2]
                k = sup.placement.workers
                nodes = len(set(sup.gang.nodes)) if sup.gang else 1
                model.observe_step(nodes, k, math.ceil(spec.global_batch / k), ms / 1000.0, 0.0)
        typed = {}
        if cluster.node_types:
            # One model per type it has run on; no profile of the types yet, so an unseen type is projected
            # at the speed of one it has run on until it runs there (the typed policy's rule).
            # A move's price is what this job's own restarts cost (else the policy's learned restart_s).
            costs = sorted(sup.restart_costs()) if sup is not None and hasattr(sup, "restart_costs") else []
            typed = {"gpu_type": gpu_type, "models": dict(t.models), "type_speed": dict.fromkeys(cluster.types, 1.0),
                     "restart_s": costs[len(costs) // 2] if costs else None}
        lo, hi = spec.min_workers, spec.max_workers or spec.requested_workers
        requested = spec.requested_workers
        if t.pinned:
            lo = hi = requested = t.pinned
        submitted = job.submitted_at
        submit_time = submitted.replace(tzinfo=UTC).timestamp() if submitted is not None else time.time()
        return JobView(
            job_id=job.job_id, submit_time=submit_time, requested_workers=min(requested, hi),
            priority=job.priority, min_workers=lo, max_workers=hi,
            requested_batch=spec.global_batch, workers=workers, placement=placement,
            batch_size=spec.global_batch, attained_service=t.attained, restarts=job.attempts,
            limits=t.model.limits, model=t.models.get(gpu_type, t.model) if gpu_type else t.model, **typed,
        )

    def _placement(self, sup: Any, workers: int, cluster: Any, gpu_type: str | None = None) -> tuple[int, ...]:
        """The node index of each of a job's workers, as the policy expects (a valid tuple even while
        the job is between gangs; on the nodes of its GPU type when it has one)."""
        index = {node: i for i, node in enumerate(self._nodes)}
        if sup.gang is not None and len(sup.gang.nodes) == workers:
            out = tuple(index.get(n, 0) for n in sup.gang.nodes)
            if all(out.count(i) <= c for i, c in enumerate(cluster.capacity)):
                return out
        out, free = [], list(cluster.capacity)
        if gpu_type is not None and cluster.node_types:
            free = [f if t == gpu_type else 0 for f, t in zip(free, cluster.node_types, strict=True)]
        for _ in range(workers):
            i = max(range(len(free)), key=lambda i: free[i])
            free[i] -= 1
            out.append(i)
        return tuple(out)

    # -- acting --------------------------------------------------------------------------------------
    def _apply(self, jobs: list[Job], decisions: Mapping[str, Any], total: int,
               foreign: int = 0, capacity: tuple[int, ...] | None = None) -> list[str]:
        """Carry out the decisions that fit; returns one line per decision taken (start, resume, resize,
        move, preempt, wait) for the console. On a cluster of several GPU types (``capacity`` per node, the
        types in ``self._node_types``) the free workers are counted per type, a job starts on the type
        decided for it, and a running job decided onto another type moves there."""
        by_id = {job.job_id: job for job in jobs}
        typed = bool(self._node_types) and capacity is not None
        free = _per_type(capacity, self._node_types) if typed else {None: total}
        for s in self.sups.values():
            if not s.done:
                key = self._pool_of(s) if typed else None
                free[key] = free.get(key, 0) - s.allocated
        mono = time.monotonic()
        applied: list[str] = []
        shrinks, grows, moves, waits = [], [], [], []
        for job_id, decision in decisions.items():
            if job_id not in by_id:
                continue
            t = self._track(by_id[job_id])
            want = int(decision.workers)
            if want > 0:
                want = feasible_workers(t.spec, want)
                if want < t.spec.min_workers:
                    want = 0
            sup = self.sups.get(job_id)
            if sup is not None and sup.outcome is not None:
                continue  # it ended after the policy looked (see round): never start it again this round
            current = sup.allocated if sup is not None else 0
            here = self._pool_of(sup) if typed and sup is not None else None
            there = (self._decided_type(decision) or here) if typed else None
            moving = typed and sup is not None and 0 < want and 0 < current and there != here
            if want == current and not moving:
                if sup is None:
                    waits.append((job_id, decision.reason))
                continue
            if sup is not None and mono - t.changed_at < self.min_change_s:
                continue  # hysteresis: a running job changes at most once per min_change_s
            if moving:
                moves.append((job_id, want, current, decision.reason, here, there))
            else:
                (shrinks if want < current else grows).append((job_id, want, current, decision.reason, there))
        starting = [self.tracked[g[0]].spec.priority for g in grows if g[2] == 0]
        for job_id, want, current, reason, _ in shrinks:
            sup, t = self.sups[job_id], self.tracked[job_id]
            if want == 0 and mono - t.changed_at < self.min_run_s and not any(
                    p > t.spec.priority for p in starting):
                continue  # no time-slicing among equals faster than min_run_s: each switch costs a restart
            if want == 0:
                sup.stop("preempt", reason, source="scheduler")
                applied.append(f"preempt {job_id} ({current} workers): {reason}")
            else:
                sup.resize(want, reason, source="scheduler")
                applied.append(f"resize {job_id} {current} -> {want} workers: {reason}")
            key = self._pool_of(sup) if typed else None
            free[key] = free.get(key, 0) + current - want
            t.decided, t.changed_at = want, mono
        for job_id, want, current, reason, here, there in moves:
            t = self.tracked[job_id]
            if want > free.get(there, 0):
                continue  # the new pool has no room yet: it stays where it is this round
            self.sups[job_id].move(self._shape_on(there), want, reason, source="scheduler")
            applied.append(f"move {job_id} from {here} ({current} workers) to {there} ({want} workers): {reason}")
            free[here] = free.get(here, 0) + current
            free[there] -= want
            t.decided, t.changed_at = want, mono
        for job_id, want, current, reason, there in sorted(grows, key=lambda g: g[1] - g[2]):
            t = self.tracked[job_id]
            sup = self.sups.get(job_id)
            key = (self._pool_of(sup) if sup is not None else there) if typed else None
            if typed and key is None:  # no type decided (a policy that does not place): the roomiest pool
                key = max(free, key=lambda k: free[k])
            if want - current > free.get(key, 0):
                if current == 0:  # the workers it needs are not free yet; next round
                    waits.append((job_id, f"{reason}; not free yet"))
                continue
            free[key] -= want - current
            # Only a job without a supervisor starts: one that has a supervisor, even one that ended a moment
            # ago (its ``allocated`` then reads 0), is resized, which a finished supervisor ignores.
            if sup is None:
                if typed:
                    self._start(by_id[job_id], want, reason, gpu_type=key)
                else:
                    self._start(by_id[job_id], want, reason)
                verb = "resume" if by_id[job_id].resumed else "start"
                where = f" of type {key}" if typed else ""
                applied.append(f"{verb} {job_id} on {want} worker{'s' * (want != 1)}{where}: {reason}")
                t.waiting = None
            else:
                sup.resize(want, reason, source="scheduler")
                applied.append(f"resize {job_id} {current} -> {want} workers: {reason}")
            t.decided, t.changed_at = want, mono
        held = {job_id: s.allocated for job_id, s in self.sups.items() if not s.done and s.allocated}
        whole = total + foreign  # the cluster's slots, the workers of other drivers' jobs included
        where = "the cluster"
        if typed:  # a job runs in one pool: the largest is what it can ever get
            whole, where = max(_per_type(capacity, self._node_types).values()) + foreign, "its largest GPU-type pool"
        for job_id, reason in waits:
            why = explain_wait(self._needed(self.tracked[job_id], whole), whole, sum(free.values()), held,
                               foreign, where)
            t = self.tracked[job_id]
            t.decided = 0
            if why != t.waiting:  # a new decision to wait, or new numbers: recorded and shown once
                t.waiting = why
                self._record_wait(by_id[job_id], f"{why} ({reason})")
                applied.append(f"wait {job_id}: {why} ({reason})")
        return applied

    def _pool_of(self, sup: Any) -> str | None:
        """The GPU type a job's supervisor holds workers of."""
        return getattr(sup, "gpu_type", None)

    def _decided_type(self, decision: Any) -> str | None:
        """The GPU type a decision puts a job on: the policy's, else that of the nodes it placed it on."""
        if getattr(decision, "gpu_type", None):
            return decision.gpu_type
        placement = getattr(decision, "placement", None)
        if placement and self._node_types and 0 <= placement[0] < len(self._node_types):
            return self._node_types[placement[0]]
        return None

    def _shape_on(self, gpu_type: str | None) -> Any:
        from assay.jobs.control import shape_on

        return shape_on(self._worker_shape(), self._pools, gpu_type) if self._pools is not None \
            else self._worker_shape()

    def _needed(self, t: _Tracked, total: int) -> int:
        """The workers a waiting job needs to start: fifo and tiresias start a job at its requested size
        (within the cluster), other policies at any runnable size from its minimum."""
        lo = t.pinned or t.spec.min_workers
        if getattr(self.policy, "name", None) in ("fifo", "tiresias") and lo <= total:
            asked = t.pinned or t.spec.requested_workers
            return max(lo, feasible_workers(t.spec, min(asked, t.spec.max_workers or asked, total)))
        return lo

    def _start(self, job: Job, workers: int, reason: str, gpu_type: str | None = None) -> None:
        from assay.jobs.control import JobSupervisor

        # The supervisor's own copy, taken by this scheduler: the one read this round stays as it was read.
        job = replace(job, owner=self.owner)
        sup = JobSupervisor(self.db, job, self.jobs_root, workers=workers, shape=self._shape_on(gpu_type),
                            source="scheduler", start_reason=reason)
        self.sups[job.job_id] = sup.start()

    def _record_wait(self, job: Job, reason: str) -> None:
        """An ``allocations`` row (0 workers, why) and, for a job not yet started, the state ``waiting``."""
        job_id = job.job_id
        alloc = {"job_id": job_id, "at": utc_now(), "workers": 0, "plan": json.dumps({"decision": "wait"}),
                 "reason": f"wait: {reason}", "source": "scheduler"}
        try:
            db_call(write_rows, self.db, {"allocations": [alloc]})
            if job.state == JobState.QUEUED:
                db_call(set_state_if, self.db, job_id, JobState.WAITING, JobState.QUEUED)
        except Exception as exc:
            log.warning("scheduler: recording a decision for %s failed: %s", job_id, exc)


def explain_wait(need: int, whole: int, free: int, held: Mapping[str, int], foreign: int,
                 where: str = "the cluster") -> str:
    """Why a job waits, in the words of ``needs 4 workers, 2 free; 2 held by job-a`` (the policy's reason
    follows in brackets where it is recorded); ``whole`` is the slots of ``where`` (the cluster, or on a
    cluster of several GPU types its largest pool), ``free`` those nobody holds."""
    plural = "s" * (need != 1)
    if need > whole:
        return f"needs {need} worker{plural}, {where} has {whole}: cannot start until it grows"
    holders = [f"{n} held by {job_id}" for job_id, n in sorted(held.items(), key=lambda kv: -kv[1])]
    if foreign:
        holders.append(f"{foreign} by jobs of other drivers")
    why = f"needs {need} worker{plural}, {max(free, 0)} free"
    if holders:
        why += "; " + ", ".join(holders)
    return why


def _queued_waiting(job: Job) -> bool:
    """A job this scheduler (or a previous one) decided to keep waiting: no driver owns it yet. (A job whose
    own supervisor waits for Ray to place its workers is ``waiting`` too, with an owner.)"""
    return job.state == JobState.WAITING and not job.owner


def _per_type(capacity: tuple[int, ...], node_types: tuple[str, ...]) -> dict[str | None, int]:
    """Slots per GPU type (one entry, None, when the nodes have no types)."""
    if not node_types:
        return {None: sum(capacity)}
    out: dict[str | None, int] = {}
    for c, t in zip(capacity, node_types, strict=True):
        out[t] = out.get(t, 0) + c
    return out


def _cap(per_node: list[int], total: int) -> list[int]:
    """At most ``total`` slots, taken from the largest nodes first (never more than the nodes hold)."""
    out, left = [0] * len(per_node), total
    for i in sorted(range(len(per_node)), key=lambda i: -per_node[i]):
        out[i] = min(per_node[i], left)
        left -= out[i]
    return out

