"""First come, first served, at the size the user asked for, never preempting."""

from __future__ import annotations

from collections.abc import Sequence

from assay.scheduler.policies._base import ClusterView, Decision, JobView, register_policy
from assay.scheduler.policies._placement import PLACERS, free_after, place_typed


def requested_size(job: JobView, total: int) -> int:
    """The workers a job asked for, within its own bounds and the cluster; 0 when not even its
    ``min_workers`` fit the whole cluster (it can never start there, so it must hold nothing)."""
    if job.min_workers > total:
        return 0
    want = max(job.requested_workers, job.min_workers, 1)
    return min(want, job.upper_workers or want, total)


def never_fits(policy: str, job: JobView, cluster: ClusterView) -> Decision:
    return Decision(0, f"{policy}: needs at least {job.min_workers} workers, the cluster has {cluster.total}: "
                       "cannot start until it grows")


class Fifo:
    """Jobs start in submission order with their requested workers and batch. With ``backfill`` off
    (the default) a job that does not fit blocks every later one; with it on, later jobs that fit run."""

    name = "fifo"

    def __init__(self, backfill: bool = False, placement: str = "pack"):
        if placement not in PLACERS:
            raise ValueError(f"placement must be one of {sorted(PLACERS)}, got {placement!r}")
        self.backfill = backfill
        self._place = PLACERS[placement]

    def decide(self, jobs: Sequence[JobView], cluster: ClusterView, now: float) -> dict[str, Decision]:
        order = sorted(range(len(jobs)), key=lambda i: (jobs[i].submit_time, i))
        out: dict[str, Decision] = {}
        running = [j for j in jobs if j.running]
        free = free_after(cluster.capacity, (j.placement for j in running))
        for j in running:
            out[j.job_id] = Decision(j.workers, "fifo: keeps running", j.batch_size, j.placement)
        blocked_by: str | None = None
        for i in order:
            job = jobs[i]
            if job.running:
                continue
            need = requested_size(job, cluster.total)
            if need == 0:  # never fits: it waits without blocking the queue behind it
                out[job.job_id] = never_fits("fifo", job, cluster)
                continue
            if blocked_by is None or self.backfill:
                placement = place_typed(self._place, need, free, cluster.node_types)
                if placement is not None:
                    out[job.job_id] = Decision(need, f"fifo: starts with the requested {need} workers",
                                               job.requested_batch, placement)
                    continue
                if blocked_by is None:
                    blocked_by = job.job_id
                    out[job.job_id] = Decision(0, f"fifo: head of the queue, waits for {need} free workers")
                    continue
            out[job.job_id] = Decision(0, f"fifo: queued behind {blocked_by}")
        return out


register_policy("fifo", Fifo)
