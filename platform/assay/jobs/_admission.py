"""Admission control: whether a job can ever run on the cluster the scheduler will have, decided when it is
submitted, so a job that can never fit is refused with its reason instead of waiting in the queue forever.

The capacity is counted as the live scheduler counts it (``assay.live.scheduler``): worker slots, one worker
shape (CPUs each, one GPU each where the cluster has GPUs) per slot, summed over the live nodes, capped
by the slots the scheduler is told to hand out. Where the count comes from is said in every message:
``--workers`` (the configured slots), the connected Ray cluster, or this machine's CPUs (what
``assay scheduler`` starts an embedded Ray with).

On a cluster of several GPU types (node pools, ``_pools``) a job runs in one pool at a time, so what it
can ever get is the largest pool's slots, and that is the number admission judges by; the message lists
every pool.
"""

from __future__ import annotations

import math
import os
import sys
from dataclasses import dataclass
from typing import Any

from assay.jobs._layout import feasible_workers
from assay.jobs.spec import JobSpec, SpecError


@dataclass(frozen=True)
class Capacity:
    """Worker slots and where that number comes from (said in messages). On a cluster of several GPU types
    ``slots`` is the largest pool's (a job runs in one pool) and ``pools`` has the slots of each type."""

    slots: int
    source: str
    pools: tuple[tuple[str, int], ...] = ()

    def __str__(self) -> str:
        return f"{self.slots} worker slot{'s' * (self.slots != 1)} ({self.source})"


def worker_shape(totals: dict[str, float], slots: int | None = None, worker_cpus: float | None = None) -> Any:
    """The shape of one scheduler worker on a cluster with ``totals`` (CPU, GPU): ``worker_cpus`` CPUs, else
    an equal share of the CPUs among ``slots`` (at most one), else one CPU; one GPU each where there are GPUs."""
    from assay.jobs._gang import WorkerShape

    if worker_cpus:
        cpus = worker_cpus
    elif slots:
        cpus = min(1.0, totals.get("CPU", 1.0) / slots)
    else:
        cpus = 1.0
    return WorkerShape(cpus=cpus, gpus=1.0 if totals.get("GPU", 0.0) >= 1 else 0.0)


def _per_worker(shape: Any) -> str:
    cpus = f"{shape.cpus:g} CPU{'s' * (shape.cpus != 1)}"
    return f"{cpus} and 1 GPU per worker" if shape.gpus else f"{cpus} per worker"


def capacity(slots: int | None = None, address: str | None = None,
             worker_cpus: float | None = None) -> Capacity:
    """The worker slots the live scheduler will hand out: ``slots`` when given (``--workers``); else those of
    the Ray cluster at ``address`` (else ``RAY_ADDRESS``) or the one this process is connected to; else this machine's CPUs."""
    if slots:
        return Capacity(slots, f"--workers {slots}")
    from assay.ray_session import cluster_address, ensure_ray

    ray = sys.modules.get("ray")
    if cluster_address(address) or (ray is not None and ray.is_initialized()):
        ensure_ray(address, log_to_driver=False)
        return ray_capacity(worker_cpus=worker_cpus)
    cpus = os.cpu_count() or 1  # what ensure_ray gives an embedded cluster
    per = worker_cpus or 1.0
    return Capacity(max(0, math.floor(cpus / per + 1e-9)),
                    f"this machine's {cpus} CPUs / {per:g} CPU per worker, as `assay scheduler` without "
                    "--address or --workers would have")


def ray_capacity(slots: int | None = None, worker_cpus: float | None = None) -> Capacity:
    """The slots of the connected Ray cluster's live nodes (capped at ``slots``)."""
    from assay.jobs import _gang

    totals = _gang.cluster_totals()
    return pooled_capacity(worker_shape(totals, slots, worker_cpus), _gang.live_node_resources(), totals, slots)


def pooled_capacity(shape: Any, nodes: list[dict[str, float]], totals: dict[str, float],
                    slots: int | None = None) -> Capacity:
    """The slots of live ``nodes`` (each node's resources) for workers of ``shape``, capped at ``slots``:
    on a cluster of several GPU types, the largest pool's, with every pool's listed."""
    from assay.jobs._pools import describe, pool_slots, read_pools

    pools = read_pools(nodes)
    per_type = pool_slots(shape, pools, nodes)
    if slots:
        per_type = {t: min(n, slots) for t, n in per_type.items()}
    what = f"{totals.get('GPU', 0):g} GPUs" if shape.gpus else f"{totals.get('CPU', 0):g} CPUs"
    source = f"the connected Ray cluster: {len(nodes)} node{'s' * (len(nodes) != 1)}, {what}, {_per_worker(shape)}"
    if not pools.typed:
        return Capacity(per_type[None], source)
    largest = max(per_type.values())
    return Capacity(largest, f"{source}; in the largest of {len(per_type)} GPU-type pools, as a job runs in one "
                             f"({describe(per_type)})", tuple((str(t), n) for t, n in per_type.items()))


def admit(spec: JobSpec, cap: Capacity) -> str:
    """Refuse (:class:`SpecError` naming the field and the fix) a job that can never run on ``cap``; else
    say on how many workers it will run there."""
    lo = spec.min_workers
    if lo > cap.slots:
        raise SpecError("min_workers", f"{lo} workers can never fit: the cluster has {cap}.",
                        f"set min_workers <= {cap.slots}, or submit for a larger cluster (--address ADDR, "
                        "or --workers N for the slots the scheduler will hand out).")
    hi = min(spec.max_workers or spec.requested_workers, cap.slots)
    largest = feasible_workers(spec, hi)
    if largest < lo:
        raise SpecError("min_workers", f"no runnable size from min_workers={lo} up to {hi} workers on the "
                        f"cluster's {cap}: no parallel layout of those sizes fits the model and batch.",
                        f"set min_workers <= {largest}." if largest else "change the model or global_batch.")
    asks = spec.requested_workers
    note = f"runs on {lo}..{largest} workers" if largest > lo else f"runs on {lo} worker{'s' * (lo != 1)}"
    if asks > largest:
        note += f" (asks for {asks}, at most {largest} fit)"
    return f"{note} of {cap}"


def run_capacity(spec: JobSpec, workers: int | None = None, worker_cpus: float | None = None) -> Capacity:
    """The worker slots a foreground run (``assay jobs run``) has on the connected Ray cluster, for the
    worker shape that run will use: ``worker_cpus`` CPUs each when given (no GPU), else the supervisor's default
    shape for the workers it starts on (``ASSAY_WORKER_CPUS``, an equal CPU share, one GPU each where the
    cluster has GPUs and the spec's device allows)."""
    from assay.jobs import _gang

    if worker_cpus:  # as ``runner.run`` builds it
        shape = _gang.WorkerShape(cpus=worker_cpus)
    else:
        shape = _gang.default_shape(workers or spec.requested_workers, spec.device)
    return pooled_capacity(shape, _gang.live_node_resources(), _gang.cluster_totals())


def admit_run(spec: JobSpec, cap: Capacity, workers: int | None = None) -> str:
    """:func:`admit` for a foreground run, which also refuses a ``--workers`` start size the cluster cannot
    hold: such a run would wait for a placement that never comes."""
    if workers and workers > cap.slots:
        raise SpecError("workers", f"{workers} workers can never start: the cluster has {cap}.",
                        f"use --workers <= {cap.slots}, fewer CPUs per worker (--worker-cpus), or a larger "
                        "cluster (--address ADDR).")
    return admit(spec, cap)
