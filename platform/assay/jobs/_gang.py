"""A job's gang of workers: the shape of one worker, what the cluster has free for it, and the gang's slots
(a single-bundle placement group and the training actor in it, each). Every call into Ray is
``assay.ray_session``'s (its ``gangs`` module: placement groups, actors, calls); this module decides how many,
of what shape, and keeps the handles."""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from assay.ray_session import cluster_resources, gangs, live_nodes


def cluster_totals() -> dict[str, float]:
    """The cluster's CPUs and GPUs, and its GPU-type resources (``gpu_type:...``, ``accelerator_type:...``),
    which a worker bound to a pool asks for (see ``_pools``)."""
    from assay.jobs._pools import ACCELERATOR_PREFIX, GPU_TYPE_PREFIX

    return {k: v for k, v in cluster_resources().items()
            if k in ("CPU", "GPU") or k.startswith((GPU_TYPE_PREFIX, ACCELERATOR_PREFIX))}


def live_node_resources() -> list[dict[str, float]]:
    """The total resources of each live node of the connected cluster."""
    return [n.resources for n in live_nodes()]


@dataclass(frozen=True)
class WorkerShape:
    """What one worker takes from the cluster: CPUs (may be fractional) and 0 or 1 GPU; on a cluster of
    several GPU types also ``pool_units`` of the custom resource ``pool`` that marks one type's nodes
    (``gpu_type:a100``), so the worker can only land in that pool (``_pools.shape_on``)."""

    cpus: float = 1.0
    gpus: float = 0.0
    pool: str | None = None
    pool_units: float = 1.0

    @property
    def gpu_type(self) -> str | None:
        """The GPU type whose pool this shape is bound to (None: any node)."""
        from assay.jobs._pools import type_of_resource

        return type_of_resource(self.pool)

    def bundle(self) -> dict[str, float]:
        out = {"CPU": self.cpus}
        if self.gpus:
            out["GPU"] = self.gpus
        if self.pool:
            out[self.pool] = self.pool_units
        return out

    def fit(self, resources: dict[str, float]) -> int:
        """How many workers of this shape ``resources`` hold."""
        n = math.floor(resources.get("CPU", 0.0) / self.cpus + 1e-9) if self.cpus else 10**6
        if self.gpus:
            n = min(n, math.floor(resources.get("GPU", 0.0) / self.gpus + 1e-9))
        if self.pool:
            n = min(n, math.floor(resources.get(self.pool, 0.0) / self.pool_units + 1e-9))
        return max(0, n)


def default_shape(workers: int, device: str = "auto") -> WorkerShape:
    """One GPU per worker where the cluster has GPUs (and the job may use them); otherwise an equal share
    of the cluster's CPUs, at most one each, so a job of more workers than cores still starts."""
    totals = cluster_totals()
    env = os.environ.get("ASSAY_WORKER_CPUS")
    if device != "cpu" and totals.get("GPU", 0) >= 1:
        return WorkerShape(cpus=float(env) if env else min(1.0, totals.get("CPU", 1) / max(1, workers)), gpus=1.0)
    if env:
        return WorkerShape(cpus=float(env))
    share = totals.get("CPU", 1.0) / max(1, workers)
    return WorkerShape(cpus=min(1.0, math.floor(share * 100) / 100 or 0.01))


@dataclass
class Worker:
    """One worker slot: a single-bundle placement group and the actor in it."""

    pg: Any
    actor: Any = None
    info: dict[str, Any] | None = None

    def kill(self) -> None:
        if self.actor is not None:
            gangs.kill(self.actor)
            self.actor = None
        if self.pg is not None:
            gangs.release(self.pg)
            self.pg = None


@dataclass
class Gang:
    """A job's workers, rank i in ``workers[i]``. Each worker has a placement group of its own, so a resize
    keeps the live processes (torch imported, data generated) and only adds or removes the difference;
    a new size is reserved whole before anything changes (:func:`reserve`)."""

    workers: list[Worker] = field(default_factory=list)

    @property
    def actors(self) -> list[Any]:
        return [w.actor for w in self.workers]

    @property
    def infos(self) -> list[dict[str, Any]]:
        return [w.info or {} for w in self.workers]

    @property
    def pids(self) -> list[int]:
        return [i.get("pid") for i in self.infos]

    @property
    def nodes(self) -> list[str]:
        return [i.get("node_id") for i in self.infos]

    def kill(self) -> None:
        for w in self.workers:
            w.kill()
        self.workers = []

    def keep(self, n: int) -> None:
        """Shrink to the first ``n`` workers (the others are stopped and their reservations freed)."""
        for w in self.workers[n:]:
            w.kill()
        del self.workers[n:]


def reserve(workers: int, shape: WorkerShape, timeout_s: float, name: str,
            give_up: Callable[[], bool] | None = None) -> list[Worker] | None:
    """``workers`` reserved slots, all or none: None if the cluster cannot place them within ``timeout_s``
    (or as soon as ``give_up()`` says it never will, e.g. a node was lost)."""
    groups = gangs.reserve(shape.bundle(), workers, name, timeout_s, give_up, strategy="PACK")
    return None if groups is None else [Worker(g) for g in groups]


def start_actors(gang: Gang, shape: WorkerShape, timeout_s: float) -> None:
    """Start a :class:`TrainWorker` in every slot that has none; collect each new one's pid and node."""
    from assay.training.worker import TrainWorker

    kind = gangs.actor_class(TrainWorker)
    fresh = [w for w in gang.workers if w.actor is None]
    for w in fresh:
        w.actor = gangs.start_actor(kind, w.pg, shape.cpus, shape.gpus)
    infos = gangs.results(gangs.call_all([w.actor for w in fresh], "info"), timeout_s)
    for w, info in zip(fresh, infos, strict=True):
        w.info = info
