"""Ray plumbing for jobs: what the cluster has free, and gangs of workers in placement groups (connecting
to Ray is ``assay.ray_session``'s)."""

from __future__ import annotations

import logging
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)


def cluster_totals() -> dict[str, float]:
    """The cluster's CPUs and GPUs, and its GPU-type resources (``gpu_type:...``, ``accelerator_type:...``),
    which a worker bound to a pool asks for (see ``_pools``)."""
    import ray

    from assay.jobs._pools import ACCELERATOR_PREFIX, GPU_TYPE_PREFIX

    return {k: float(v) for k, v in ray.cluster_resources().items()
            if k in ("CPU", "GPU") or k.startswith((GPU_TYPE_PREFIX, ACCELERATOR_PREFIX))}


def live_node_resources() -> list[dict[str, float]]:
    """The total resources of each live node of the connected cluster."""
    import ray

    return [{k: float(v) for k, v in n.get("Resources", {}).items()} for n in ray.nodes() if n.get("Alive")]


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
        import ray
        from ray.util.placement_group import remove_placement_group

        if self.actor is not None:
            try:
                ray.kill(self.actor, no_restart=True)
            except Exception as exc:  # an actor that is already gone
                log.debug("kill: %s", exc)
            self.actor = None
        if self.pg is not None:
            try:
                remove_placement_group(self.pg)
            except Exception as exc:
                log.debug("remove placement group: %s", exc)
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
    import ray
    from ray.util.placement_group import placement_group

    stamp = time.time_ns()
    slots = [Worker(placement_group([shape.bundle()], strategy="PACK", name=f"{name}-{stamp}-{i}"))
             for i in range(workers)]
    pending = [w.pg.ready() for w in slots]
    deadline = time.monotonic() + timeout_s
    while pending:
        _, pending = ray.wait(pending, num_returns=len(pending),
                              timeout=min(0.5, max(0.0, deadline - time.monotonic())))
        if pending and (time.monotonic() >= deadline or (give_up is not None and give_up())):
            for w in slots:
                w.kill()
            return None
    return slots


def start_actors(gang: Gang, shape: WorkerShape, timeout_s: float) -> None:
    """Start a :class:`TrainWorker` in every slot that has none; collect each new one's pid and node."""
    import ray
    from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy

    from assay.training.worker import TrainWorker

    remote_cls = ray.remote(max_restarts=0)(TrainWorker)
    fresh = [w for w in gang.workers if w.actor is None]
    for w in fresh:
        strategy = PlacementGroupSchedulingStrategy(w.pg, placement_group_bundle_index=0)
        w.actor = remote_cls.options(num_cpus=shape.cpus, num_gpus=shape.gpus,
                                     scheduling_strategy=strategy).remote()
    infos = ray.get([w.actor.info.remote() for w in fresh], timeout=timeout_s)
    for w, info in zip(fresh, infos, strict=True):
        w.info = info
