"""Tiresias (Gu et al., NSDI'19), discretised least-attained-service: jobs sit in priority queues by the
worker-seconds they have received; higher queues first, first come first served inside a queue; a job
that does not fit is skipped (later, smaller ones may run) and running jobs of lower queues are preempted.

The defaults match the Tiresias baseline of Pollux's simulator: two queues split at 16 GPU-hours, no
starvation promotion, requested workers and batch, workers on the nodes with the most free workers.
"""

from __future__ import annotations

from collections.abc import Sequence

from assay.scheduler.policies._base import ClusterView, Decision, JobView, register_policy
from assay.scheduler.policies._fifo import never_fits, requested_size
from assay.scheduler.policies._placement import PLACERS, free_after, place_typed


class Tiresias:
    name = "tiresias"

    def __init__(self, thresholds: Sequence[float] = (16 * 3600.0,), placement: str = "spread",
                 starvation: float = 0.0):
        """``thresholds``: attained worker-seconds at which a job moves down one queue. ``starvation``: if
        positive, a demoted job waiting longer than ``starvation`` x its attained service (in seconds per
        worker) goes back to the top queue."""
        if placement not in PLACERS:
            raise ValueError(f"placement must be one of {sorted(PLACERS)}, got {placement!r}")
        if any(t <= 0 for t in thresholds):
            raise ValueError("tiresias thresholds must be positive worker-seconds")
        self.thresholds = tuple(sorted(float(t) for t in thresholds))
        self.starvation = float(starvation)
        self._place = PLACERS[placement]
        self._level: dict[str, int] = {}
        self._demoted_seq: dict[str, int] = {}
        self._waiting_since: dict[str, float] = {}
        self._offset: dict[str, float] = {}  # attained service forgiven by a starvation promotion
        self._seq = 0

    def _queue(self, job: JobView, now: float) -> int:
        attained = job.attained_service - self._offset.get(job.job_id, 0.0)
        level = sum(attained >= t for t in self.thresholds)
        if level > self._level.get(job.job_id, 0):
            self._seq += 1
            self._demoted_seq[job.job_id] = self._seq
        self._level[job.job_id] = level
        if self.starvation > 0 and level > 0 and not job.running:
            since = self._waiting_since.setdefault(job.job_id, now)
            per_worker = job.attained_service / max(job.requested_workers, 1)
            if now - since >= self.starvation * per_worker:
                self._offset[job.job_id] = job.attained_service
                self._level[job.job_id] = 0
                self._demoted_seq.pop(job.job_id, None)
                level = 0
        if job.running:
            self._waiting_since.pop(job.job_id, None)
        return level

    def decide(self, jobs: Sequence[JobView], cluster: ClusterView, now: float) -> dict[str, Decision]:
        live = {j.job_id for j in jobs}
        for state in (self._level, self._demoted_seq, self._waiting_since, self._offset):
            for key in [k for k in state if k not in live]:
                del state[key]
        levels = [self._queue(j, now) for j in jobs]

        def rank(i: int) -> tuple:
            if levels[i] == 0:
                return (0, jobs[i].submit_time, i)
            return (levels[i], self._demoted_seq.get(jobs[i].job_id, 0), i)

        order = sorted(range(len(jobs)), key=rank)
        budget = cluster.total
        runs: set[int] = set()
        for i in order:
            need = requested_size(jobs[i], cluster.total)
            if 0 < need <= budget:
                runs.add(i)
                budget -= need
        free = free_after(cluster.capacity, (jobs[i].placement for i in runs if jobs[i].running))
        out: dict[str, Decision] = {}
        for pos, i in enumerate(order):
            job = jobs[i]
            need = requested_size(job, cluster.total)
            queue = f"Q{levels[i]}"
            if need == 0:
                out[job.job_id] = never_fits("tiresias", job, cluster)
            elif i not in runs:
                verb = "preempted" if job.running else "waits"
                out[job.job_id] = Decision(0, f"tiresias: {verb}, {queue} rank {pos + 1}, needs {need} workers")
            elif job.running:
                out[job.job_id] = Decision(job.workers, f"tiresias: keeps running, {queue} rank {pos + 1}",
                                           job.batch_size, job.placement)
            else:
                placement = place_typed(self._place, need, free, cluster.node_types)
                out[job.job_id] = Decision(need, f"tiresias: starts with the requested {need} workers, "
                                                 f"{queue} rank {pos + 1}", job.requested_batch, placement)
        return out


register_policy("tiresias", Tiresias)
