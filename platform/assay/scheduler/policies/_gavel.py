"""A heterogeneity-aware baseline after Gavel (Narayanan et al., OSDI'20), the fidelity check of the
goodput policy on clusters of several GPU types.

Gavel's jobs are rigid: each runs at the workers and batch it asked for. What Gavel adds is the type. Its
policies are linear programs over the *effective-throughput matrix* (a job's steps per second on each
type at its requested size) whose answer ``X[j][t]`` is the share of time job ``j`` should spend on type
``t``; a round-based mechanism then turns the shares into leases. This is that scheme, written from the
paper:

1. ``objective="max_sum_throughput"`` (the default; what Sia's artifact ran its Gavel baseline with):
   maximise ``sum X[j][t] * throughput[j][t]`` subject to ``sum_t X[j][t] <= 1`` per job and
   ``sum_j X[j][t] * workers_j <= GPUs of t`` per type (solved exactly, ``_lp``). The paper's other
   objectives (max-min fairness, finish-time fairness) would be further entries of ``PROGRAMS``.
2. Each round (``lease_s``, Gavel's 6-minute rounds; between two, placements stand and new jobs wait) the
   priority of (job, type) is ``X[j][t]`` over the fraction of that type's rounds the job has had (a job
   starts with half a round on every type, as Gavel's simulator seeds it), so a job that got less of its
   share comes first; a job with no share at all comes last, in submission order.
3. Jobs are taken in priority order, each on the first of its (job, type) entries whose type still has
   room for all its workers; a job stays on its previous nodes when they are free, else it is packed.

The throughput matrix comes from what the policy may know: the job's single-GPU samples per second on each
type (profiled on arrival) times its workers over its batch. No job has a throughput on a type that cannot
hold all its workers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from assay.scheduler.policies._base import ClusterView, Decision, JobView, register_policy
from assay.scheduler.policies._fifo import never_fits, requested_size
from assay.scheduler.policies._lp import maximize
from assay.scheduler.policies._placement import PLACERS, free_after, place_typed


def throughput_matrix(jobs: Sequence[JobView], needs: Sequence[int], types: Sequence[str | None],
                      totals: Sequence[int]) -> np.ndarray:
    """Steps per second of each job at its requested size on each type (0 where the type cannot hold it)."""
    out = np.zeros((len(jobs), len(types)))
    for i, (job, need) in enumerate(zip(jobs, needs, strict=True)):
        speed = job.type_speed or {}
        batch = job.requested_batch or job.batch_size or need or 1
        for k, (t, total) in enumerate(zip(types, totals, strict=True)):
            if 0 < need <= total:
                out[i, k] = need * float(speed.get(t, 1.0) if t is not None else 1.0) / batch
    return out


def max_sum_throughput(thr: np.ndarray, needs: Sequence[int], totals: Sequence[int]) -> np.ndarray:
    """Gavel's max-sum-throughput program: the time share ``X`` of every (job, type).

    Jobs of equal throughput make the optimum a face, not a point. A simplex answer is one vertex of it
    (one of two equal jobs gets everything, the other nothing, round after round); the interior-point
    solver Gavel uses lands inside the face, where equal jobs share. So the vertex found with the jobs in
    order is averaged with the one found with them in reverse order: still optimal (the mean of two
    optima), and equal jobs take turns."""
    n, k = thr.shape
    if n == 0 or k == 0:
        return np.zeros((n, k))
    forward = _vertex(thr, np.asarray(needs, dtype=float), totals)
    backward = _vertex(thr[::-1], np.asarray(needs, dtype=float)[::-1], totals)[::-1]
    return np.clip((forward + backward) / 2, 0.0, 1.0)


def _vertex(thr: np.ndarray, needs: np.ndarray, totals: Sequence[int]) -> np.ndarray:
    n, k = thr.shape
    rows = []
    for j in range(n):  # sum over types of X[j] <= 1
        row = np.zeros(n * k)
        row[j * k:(j + 1) * k] = 1.0
        rows.append(row)
    for t in range(k):  # sum over jobs of X[., t] * workers <= GPUs of t
        row = np.zeros(n * k)
        row[t::k] = needs
        rows.append(row)
    b = np.concatenate((np.ones(n), np.asarray(totals, dtype=float)))
    # throughputs scaled to their largest: the program's answer does not change, the tolerances hold
    scale = max(float(thr.max()), 1e-12)
    return maximize((thr / scale).ravel(), np.array(rows), b).reshape(n, k)


PROGRAMS = {"max_sum_throughput": max_sum_throughput}


class Gavel:
    name = "gavel"

    def __init__(self, lease_s: float = 360.0, objective: str = "max_sum_throughput", placement: str = "pack"):
        """``lease_s``: the length of Gavel's rounds (a job's lease lasts one round; named apart from the
        simulator's own ``round_s``, which is how often it asks)."""
        if placement not in PLACERS:
            raise ValueError(f"placement must be one of {sorted(PLACERS)}, got {placement!r}")
        if objective not in PROGRAMS:
            raise ValueError(f"objective must be one of {list(PROGRAMS)}, got {objective!r}")
        if lease_s < 0:
            raise ValueError("lease_s must be non-negative")
        self.lease_s = float(lease_s)
        self.objective = objective
        self.placement = placement
        self._place = PLACERS[placement]
        self._program = PROGRAMS[objective]
        #: seconds of rounds each job has had on each type, and each type's sum (both never reset)
        self._job_time: dict[str, dict[str, float]] = {}
        self._type_time: dict[str, float] = {}
        self._next: float | None = None
        self._share: dict[str, dict[str, float]] = {}

    def decide(self, jobs: Sequence[JobView], cluster: ClusterView, now: float) -> dict[str, Decision]:
        out: dict[str, Decision] = {}
        total = cluster.total
        needs = {j.job_id: requested_size(j, total) for j in jobs}
        for j in jobs:
            if needs[j.job_id] == 0:
                out[j.job_id] = never_fits("gavel", j, cluster)
        if self._next is not None and now < self._next - 1e-9:
            return self._hold(jobs, out)
        self._next = (math.floor(now / self.lease_s) + 1) * self.lease_s if self.lease_s > 0 else now
        types: tuple[str | None, ...] = cluster.types or (None,)
        keys = [t or "" for t in types]
        totals = [cluster.total_of(t) if t is not None else total for t in types]
        half = self.lease_s / 2
        live = {j.job_id for j in jobs}
        for job_id in [k for k in self._job_time if k not in live]:
            del self._job_time[job_id]
        for j in jobs:
            if j.job_id not in self._job_time:  # Gavel seeds half a round on every type
                self._job_time[j.job_id] = dict.fromkeys(keys, half)
                for key in keys:
                    self._type_time[key] = self._type_time.get(key, 0.0) + half
        cand = [j for j in jobs if needs[j.job_id] > 0]
        need_list = [needs[j.job_id] for j in cand]
        thr = throughput_matrix(cand, need_list, types, totals)
        try:
            share = self._program(thr, need_list, totals)
        except RuntimeError:  # the simplex's pivot budget ran out (never seen): no shares, jobs in order
            share = np.zeros_like(thr)
        entries = []
        for k, key in enumerate(keys):
            for i, j in enumerate(cand):
                x = float(share[i, k])
                frac = self._job_time[j.job_id][key] / max(self._type_time.get(key, 0.0), 1e-12)
                prio = 0.0 if x <= 1e-6 else (x / frac if frac > 0 else 1e9 * x)
                entries.append((prio, x, len(entries), i, k))
        entries.sort(key=lambda e: (-e[0], -e[1], e[2]))
        left = list(totals)
        chosen: dict[int, int] = {}
        for _, _, _, i, k in entries:
            if i in chosen or thr[i, k] <= 0 or need_list[i] > left[k]:
                continue
            chosen[i] = k
            left[k] -= need_list[i]
        keep = [cand[i] for i, k in chosen.items() if cand[i].running and cand[i].gpu_type == types[k]
                and cand[i].workers == need_list[i] and cand[i].placement]
        free = free_after(cluster.capacity, (j.placement for j in keep))
        for j in keep:
            out[j.job_id] = Decision(j.workers, "gavel: keeps its nodes for another round", j.batch_size,
                                     j.placement, gpu_type=j.gpu_type)
        kept = {j.job_id for j in keep}
        for i, k in sorted(chosen.items(), key=lambda ik: -need_list[ik[0]]):
            j, t = cand[i], types[k]
            if j.job_id not in kept:
                placement = place_typed(self._place, need_list[i], free, cluster.node_types if t else (), t)
                if placement is None:
                    out[j.job_id] = Decision(0, f"gavel: {need_list[i]} workers fit no free {t or ''} nodes")
                    continue
                out[j.job_id] = Decision(need_list[i], f"gavel: a round on {need_list[i]} {t or ''} workers, "
                                                       f"share {share[i, k]:.2f}".replace("  ", " "),
                                         j.requested_batch, placement, gpu_type=t)
            self._job_time[j.job_id][keys[k]] += self.lease_s
            self._type_time[keys[k]] = self._type_time.get(keys[k], 0.0) + self.lease_s
        self._share = {cand[i].job_id: {keys[k]: float(share[i, k]) for k in range(len(keys))}
                       for i in range(len(cand))}
        for j in jobs:
            if j.job_id not in out:
                verb = "preempted" if j.running else "waits"
                best = max(self._share.get(j.job_id, {}).values(), default=0.0)
                out[j.job_id] = Decision(0, f"gavel: {verb} this round (largest share {best:.2f})")
        return out

    def _hold(self, jobs: Sequence[JobView], out: dict[str, Decision]) -> dict[str, Decision]:
        """Inside a round: placements stand, jobs that arrived wait for the next round."""
        for j in jobs:
            if j.job_id in out:
                continue
            if j.running:
                out[j.job_id] = Decision(j.workers, "gavel: inside its round", j.batch_size, j.placement,
                                         gpu_type=j.gpu_type)
            else:
                out[j.job_id] = Decision(0, "gavel: waits for the next round")
        return out


register_policy("gavel", Gavel)
