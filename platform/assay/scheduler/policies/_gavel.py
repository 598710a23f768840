"""A heterogeneity-aware baseline in the style of Gavel (Narayanan et al., OSDI'20), the fidelity check of
the goodput policy on clusters of several GPU types.

Gavel's jobs are rigid: each runs at the workers and batch it asked for. What Gavel adds is the type:
it allocates time on each GPU type by a policy's objective over the jobs' per-type throughputs, and
hands out leases round by round so every job gets its share. This is a greedy form of its least-attained-
service (max-min fairness) policy, without a linear-program solver:

1. Each job's attained service is counted in *normalised* seconds: workers x seconds x its throughput on
   the type it ran on over its throughput on its fastest type (a second on a slow type counts less).
2. Every round the jobs are ranked by that service (least first; a job that waited long enough is not
   passed over forever, as the lease mechanism guarantees in Gavel) and admitted while their requested
   workers fit the cluster's GPUs.
3. Admitted running jobs keep their placement until their lease (``lease_s``, Gavel's 6-minute rounds)
   ends; the others choose a type in order of how much they gain from their best type over their worst
   (the job that gains most chooses first), each taking its fastest type with room.
"""

from __future__ import annotations

from collections.abc import Sequence

from assay.scheduler.policies._base import ClusterView, Decision, JobView, register_policy
from assay.scheduler.policies._fifo import never_fits, requested_size
from assay.scheduler.policies._placement import PLACERS, free_after, place_typed


class Gavel:
    name = "gavel"

    def __init__(self, lease_s: float = 360.0, placement: str = "pack"):
        if placement not in PLACERS:
            raise ValueError(f"placement must be one of {sorted(PLACERS)}, got {placement!r}")
        if lease_s < 0:
            raise ValueError("lease_s must be non-negative")
        self.lease_s = float(lease_s)
        self.placement = placement
        self._place = PLACERS[placement]
        self._service: dict[str, float] = {}
        self._since: dict[str, float] = {}  # when the current lease began
        self._last: float | None = None

    def _speed(self, job: JobView, gpu_type: str | None) -> float:
        speed = job.type_speed or {}
        if not speed or gpu_type is None:
            return 1.0
        return speed.get(gpu_type, 1.0) / max(max(speed.values()), 1e-12)

    def decide(self, jobs: Sequence[JobView], cluster: ClusterView, now: float) -> dict[str, Decision]:
        dt = 0.0 if self._last is None else max(now - self._last, 0.0)
        self._last = now
        live = {j.job_id for j in jobs}
        for state in (self._service, self._since):
            for key in [k for k in state if k not in live]:
                del state[key]
        for j in jobs:
            if j.running:
                self._service[j.job_id] = self._service.get(j.job_id, 0.0) + dt * j.workers * self._speed(
                    j, j.gpu_type)
            else:
                self._since.pop(j.job_id, None)
        out: dict[str, Decision] = {}
        total = cluster.total
        needs = {j.job_id: requested_size(j, total) for j in jobs}

        def leased(j: JobView) -> bool:
            return j.running and now - self._since.get(j.job_id, now) < self.lease_s

        order = sorted(jobs, key=lambda j: (not leased(j), self._service.get(j.job_id, 0.0), j.submit_time))
        budget = total
        admitted: list[JobView] = []
        for j in order:
            need = needs[j.job_id]
            if need == 0:
                out[j.job_id] = never_fits("gavel", j, cluster)
            elif need <= budget:
                admitted.append(j)
                budget -= need
        keep = [j for j in admitted if j.running and j.workers == needs[j.job_id]]
        free = free_after(cluster.capacity, (j.placement for j in keep))
        for j in keep:
            out[j.job_id] = Decision(j.workers, "gavel: keeps its lease", j.batch_size, j.placement,
                                     gpu_type=j.gpu_type)
        kept = {j.job_id for j in keep}

        def gain(j: JobView) -> float:
            speed = j.type_speed or {}
            return max(speed.values()) / max(min(speed.values()), 1e-12) if speed else 1.0

        for j in sorted((j for j in admitted if j.job_id not in kept), key=lambda j: -gain(j)):
            need = needs[j.job_id]
            placement = None
            gpu_type = None
            types = cluster.types or (None,)
            for t in sorted(types, key=lambda t: -self._speed(j, t)):
                placement = place_typed(self._place, need, free, cluster.node_types if t else (), t)
                if placement is not None:
                    gpu_type = t
                    break
            if placement is None:
                out[j.job_id] = Decision(0, f"gavel: admitted but {need} workers fit no single GPU type")
                continue
            self._since[j.job_id] = now
            out[j.job_id] = Decision(need, f"gavel: lease of {need} {gpu_type or ''} workers".replace("  ", " "),
                                     j.requested_batch, placement, gpu_type=gpu_type)
        for j in jobs:
            if j.job_id not in out:
                verb = "preempted" if j.running else "waits"
                out[j.job_id] = Decision(0, f"gavel: {verb}, normalised service "
                                            f"{self._service.get(j.job_id, 0.0):.0f} s")
        return out


register_policy("gavel", Gavel)
